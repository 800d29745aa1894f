import AppStoreServer
import JSONRPC
import Storegate

extension Rule {
    /// Which of the app's environments a call to Apple goes to.
    static let environment = Rule.appEnvironment.described("Production or Sandbox (default: Production when the app has it).")
}
