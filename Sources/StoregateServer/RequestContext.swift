import Hummingbird
import Logging
import Storegate

/// The per-request context: Hummingbird's core storage plus the caller resolved by `APIKeyMiddleware`.
public struct StoregateRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public var caller: Caller?

    public init(source: Source) {
        self.coreContext = .init(source: source)
    }
}
