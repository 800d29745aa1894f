import Hummingbird
import HummingbirdAuth
import Storegate

/// The per-request context. On `/rpc` the `APIKeyAuthenticator` puts the caller (the tenant and the API
/// key it called with) in `identity` before the controller runs; other routes leave it empty.
public struct StoregateRequestContext: AuthRequestContext {
    public var coreContext: CoreRequestContextStorage
    public var identity: Caller?

    public init(source: Source) {
        self.coreContext = .init(source: source)
    }
}
