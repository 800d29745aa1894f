import AppStoreServer
import JSONRPC
import Storegate

extension Rule {
    /// An App Store environment, as Apple names it.
    static let appStoreEnvironment = Rule.oneOf(AppStoreEnvironment.known.map(\.rawValue))
    /// An environment an app can use.
    static let appEnvironment = Rule.oneOf(Validate.environments.map(\.rawValue))
    /// Which of the app's environments a call to Apple goes to.
    static let environment = Rule.appEnvironment.described("Production or Sandbox (default: Production when the app has it).")
}
