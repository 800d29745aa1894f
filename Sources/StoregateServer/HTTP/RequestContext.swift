import Hummingbird

/// The per-request context: Hummingbird's core storage. The RPC controller authenticates each request
/// itself (see `RPCController`), so nothing else is carried.
public struct StoregateRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: Source) {
        self.coreContext = .init(source: source)
    }
}
