import Synchronization

/// What the engine reports as it runs calls, for logs. What each call did is reported with its reply
/// (`RPCReply.calls`), so that a caller that still has to write something before answering (audit
/// entries) reports the calls with what the client is actually told.
public struct RPCHooks<Context: Sendable>: Sendable {
    /// A handler threw an error that is not an `RPCErrorConvertible`: it is answered as -32603.
    public var unexpectedError: @Sendable (_ method: String, _ error: any Error, _ context: Context) -> Void

    public init(unexpectedError: @escaping @Sendable (String, any Error, Context) -> Void = { _, _, _ in }) {
        self.unexpectedError = unexpectedError
    }
}

/// The JSON-RPC 2.0 protocol engine: parses a body, validates requests, dispatches single calls and
/// batches, and writes responses. It knows nothing of HTTP, tenants or the App Store.
public struct RPCEngine<Context: Sendable>: Sendable {
    public let registry: RPCRegistry<Context>
    /// The most requests one batch may hold; a larger batch is refused whole with -32600.
    public let maxBatchSize: Int
    /// How many requests of one batch run at once.
    public let batchConcurrency: Int
    let hooks: RPCHooks<Context>

    public init(registry: RPCRegistry<Context>, maxBatchSize: Int = 100, batchConcurrency: Int = 8, hooks: RPCHooks<Context> = RPCHooks()) {
        self.registry = registry
        self.maxBatchSize = maxBatchSize
        self.batchConcurrency = max(1, batchConcurrency)
        self.hooks = hooks
    }

    /// The response body, or nil when there is nothing to answer (notifications only).
    public func respond(to body: some Collection<UInt8>, context: Context) async -> [UInt8]? {
        await reply(to: body, context: context).body
    }

    /// The response body (nil when there is nothing to answer: notifications only), with what it answers
    /// and the calls it made.
    public func reply(to body: some Collection<UInt8>, context: Context) async -> RPCReply {
        let value: JSONValue
        do {
            value = try JSONParser.parse(body)
        } catch {
            return RPCReply(single: .failure(.parseError("\(error.reason) at byte \(error.offset)")), id: .null)
        }
        guard case .array(let items) = value else {
            let done = await call(value, context: context)
            return RPCReply(body: done.answer?.body, answers: done.answer.map { [$0.error] } ?? [], calls: done.call.map { [$0] } ?? [])
        }
        guard !items.isEmpty else { return RPCReply(single: .failure(.invalidRequest("empty batch")), id: .null) }
        guard items.count <= maxBatchSize else {
            return RPCReply(
                single: .failure(.invalidRequest("batch holds \(items.count) requests", data: [("maxBatchSize", .number(maxBatchSize))])), id: .null)
        }
        let done = await boundedMap(items) { await call($0, context: context) }.compactMap { $0 }
        let answers = done.compactMap(\.answer)
        let calls = done.compactMap(\.call)
        guard !answers.isEmpty else { return RPCReply(body: nil, answers: [], calls: calls) }
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (i, answer) in answers.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: answer.body)
        }
        out.append(UInt8(ascii: "]"))
        return RPCReply(body: out, answers: answers.map(\.error), calls: calls)
    }

    /// One request object: its response and error (nil for a valid notification), and the call it made
    /// (nil when it was not a valid request).
    func call(_ value: JSONValue, context: Context) async -> (answer: (body: [UInt8], error: RPCError?)?, call: RPCCallRecord?) {
        let request: Request
        switch Request.parse(value) {
        case .failure(let error): return ((Self.response(id: .null, outcome: .failure(error)), error), nil)
        case .success(let parsed): request = parsed
        }
        let start = ContinuousClock.now
        let method = registry.methods[request.method]
        let outcome: Result<[UInt8], RPCError>
        if let method {
            do {
                outcome = .success(try await method.invoke(request.params ?? .object([]), context))
            } catch let error as any RPCErrorConvertible {
                outcome = .failure(error.rpcError)
            } catch {
                hooks.unexpectedError(request.method, error, context)
                outcome = .failure(.internal)
            }
        } else {
            outcome = .failure(.methodNotFound(request.method))
        }
        let failure: RPCError? = if case .failure(let e) = outcome { e } else { nil }
        let record = RPCCallRecord(method: method?.description.name, error: failure, duration: ContinuousClock.now - start)
        guard let id = request.id else { return (nil, record) }
        return ((Self.response(id: id, outcome: outcome), failure), record)
    }

    /// A lone error response with a null id, for transport-level refusals.
    public static func errorResponse(_ error: RPCError) -> [UInt8] { response(id: .null, outcome: .failure(error)) }

    static func response(id: JSONValue, outcome: Result<[UInt8], RPCError>) -> [UInt8] {
        var out = Array(#"{"jsonrpc":"2.0","#.utf8)
        switch outcome {
        case .success(let result):
            out.append(contentsOf: #""result":"#.utf8)
            out.append(contentsOf: result)
        case .failure(let error):
            out.append(contentsOf: #""error":"#.utf8)
            error.json.write(to: &out)
        }
        out.append(contentsOf: #","id":"#.utf8)
        id.write(to: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// Runs `transform` over `items` with at most `batchConcurrency` at once, keeping the input order: that
    /// many workers take the next request in turn (a task per request cost a batch of signatures more than
    /// a tenth of its CPU).
    private func boundedMap<T: Sendable>(_ items: [JSONValue], _ transform: @escaping @Sendable (JSONValue) async -> T?) async -> [T?] {
        let cursor = BatchCursor()
        return await withTaskGroup(of: [(Int, T?)].self) { group in
            for _ in 0..<min(batchConcurrency, items.count) {
                group.addTask {
                    var done: [(Int, T?)] = []
                    var i = cursor.take()
                    while i < items.count {
                        done.append((i, await transform(items[i])))
                        i = cursor.take()
                    }
                    return done
                }
            }
            var results = [T?](repeating: nil, count: items.count)
            for await done in group {
                for (i, result) in done { results[i] = result }
            }
            return results
        }
    }
}

/// The next request of a batch for whichever worker asks.
private final class BatchCursor: Sendable {
    private let next = Atomic<Int>(0)

    func take() -> Int { next.wrappingAdd(1, ordering: .relaxed).oldValue }
}

/// A validated request object.
struct Request {
    let method: String
    let params: JSONValue?
    /// nil for a notification; `.null` is a request whose id is null.
    let id: JSONValue?

    static func parse(_ value: JSONValue) -> Result<Request, RPCError> {
        guard case .object = value else { return .failure(.invalidRequest("a request must be a JSON object")) }
        let id = value["id"]
        switch id {
        case nil, .null, .string, .number: break
        default: return .failure(.invalidRequest("id must be a string, a number or null"))
        }
        guard value["jsonrpc"] == .string("2.0") else { return .failure(.invalidRequest("jsonrpc must be exactly \"2.0\"")) }
        guard case .string(let method) = value["method"] else { return .failure(.invalidRequest("method must be a string")) }
        let params = value["params"]
        switch params {
        case nil, .object, .array: break
        default: return .failure(.invalidRequest("params must be an object or an array"))
        }
        return .success(Request(method: method, params: params, id: id))
    }
}

/// A response body (nil: nothing to answer), the outcome of each request it answers (nil for a success),
/// in order, and the calls it made, notifications included.
public struct RPCReply: Sendable {
    public let body: [UInt8]?
    public let answers: [RPCError?]
    public let calls: [RPCCallRecord]

    init(body: [UInt8]?, answers: [RPCError?], calls: [RPCCallRecord]) {
        self.body = body
        self.answers = answers
        self.calls = calls
    }

    init(single outcome: Result<[UInt8], RPCError>, id: JSONValue) {
        let error: RPCError? = if case .failure(let e) = outcome { e } else { nil }
        self.init(body: RPCEngine<Never>.response(id: id, outcome: outcome), answers: [error], calls: [])
    }

    /// Whether every request answered failed with `code`.
    public func allFailed(with code: Int) -> Bool {
        !answers.isEmpty && answers.allSatisfy { $0?.code == code }
    }
}

/// A call of a registered method, or of a name none is registered under (`method` nil): its error (nil on
/// success) and how long it ran.
public struct RPCCallRecord: Sendable {
    public let method: String?
    public let error: RPCError?
    public let duration: Duration
}
