import AppStoreServer
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Synchronization

/// A local App Store Server API: answers Apple's endpoints with Apple's JSON shapes and error bodies,
/// checks bearer tokens as Apple does, and signs every JWS with its own test CA. Embeddable in tests
/// (`application(port: 0)`) and runnable as `storegate simulator`.
public struct AppStoreSimulator: Sendable {
    public let store: SimulatorStore
    public let ca: SimulatorCA
    /// Delivers notifications; without one they are only signed and kept in the history.
    public let sender: NotificationSender?
    /// How the Retention Messaging performance test measures an endpoint: Apple's, unless told otherwise.
    public let performanceTest: PerformanceTestConfig
    /// Where the store is written after each request that may change it (`SimulatorStore.save(to:)`), when set.
    public let stateFile: URL?
    /// The time of what the simulator signs and decides: `now` given to `init`, made strictly increasing by the
    /// millisecond (Apple's `signedDate` resolution), so that two changes of one subscription made one after the
    /// other are never signed at the same millisecond and are ordered by their signing times, whatever order
    /// their notifications arrive in (they are delivered side by side).
    let now: @Sendable () -> Date

    public init(
        store: SimulatorStore = SimulatorStore(), ca: SimulatorCA? = nil, sender: NotificationSender? = nil,
        performanceTest: PerformanceTestConfig = Self.applesPerformanceTest, stateFile: URL? = nil, now: @escaping @Sendable () -> Date = Date.init
    ) throws {
        self.store = store
        self.ca = try ca ?? SimulatorCA()
        self.sender = sender
        self.performanceTest = performanceTest
        self.stateFile = stateFile
        let last = Mutex(Date.distantPast)
        self.now = {
            let time = now()
            return last.withLock { last in
                last = max(time, last + 0.001)
                return last
            }
        }
    }

    /// The HTTP application; `onServerRunning` gets the bound port.
    public func application(
        host: String = "127.0.0.1", port: Int, logger: Logger = Logger(label: "storegate.simulator"),
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = Router(context: SimulatorContext.self)
        if let stateFile { router.add(middleware: StateKeeper(store: store, file: stateFile)) }
        router.add(middleware: SimulatorMiddleware(simulator: self))
        addRoutes(to: router)
        addAdvancedCommerceRoutes(to: router)
        addScenarioRoutes(to: router)
        return Application(
            responder: EnvironmentPaths.Responder(router: router.buildResponder()),
            configuration: .init(address: .hostname(host, port: port), serverName: "AppStoreSimulator"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) }, logger: logger)
    }

    // MARK: Responses

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func error(_ code: APIErrorCode, _ message: String, status: HTTPResponse.Status) -> Response {
        json(ErrorPayload(errorCode: code.rawValue, errorMessage: message), status: status)
    }

    static let accepted = Response(status: .accepted)
}

/// Per request: read the environment from the path, take an injected fault if any, check the bearer token,
/// record the request, answer for an environment without the app's data.
struct SimulatorMiddleware: RouterMiddleware {
    typealias Context = SimulatorContext
    let simulator: AppStoreSimulator

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.uri.path.hasPrefix("/inApps/") || request.uri.path.hasPrefix("/advancedCommerce/") else { return try await next(request, context) }
        var request = request
        let body = try await request.collectBody(upTo: AppStoreSimulator.maxImageBytes)
        if let fault = await simulator.store.takeFault() {
            switch fault {
            case .rateLimited(let after):
                let retryAt = simulator.now().addingTimeInterval(Double(after.components.seconds) + Double(after.components.attoseconds) / 1e18)
                var response = AppStoreSimulator.error(.rateLimitExceeded, "Rate limit exceeded.", status: .tooManyRequests)
                response.headers[HTTPField.Name("Retry-After")!] = String(Int64(retryAt.timeIntervalSince1970 * 1000))
                return response
            case .serverError:
                return AppStoreSimulator.error(
                    .generalInternalRetryable, "An unknown retryable error occurred. Please retry this request.", status: .internalServerError)
            case .slow(let delay):
                try await Task.sleep(for: delay)
            }
        }
        guard let caller = await BearerCheck.verify(request.headers[.authorization], store: simulator.store, now: simulator.now()) else {
            return Response(status: .unauthorized)
        }
        let query = request.uri.queryParameters.map { (String($0.key), String($0.value)) }
        await simulator.store.record(
            .init(
                environment: context.environment, method: request.method.rawValue, path: request.uri.path, query: query,
                contentType: request.headers[.contentType], body: Data(body.readableBytesView),
                bearerClaims: caller.claims))
        if let asked = context.environment, await simulator.store.app(caller.bundleId)?.environment != asked,
            let empty = EnvironmentPaths.emptyAnswer(method: request.method, path: request.uri.path)
        {
            return empty
        }
        var context = context
        context.bundleId = caller.bundleId
        return try await next(request, context)
    }
}

/// The request context: the environment the path named, the bundle ID of the checked bearer token.
public struct SimulatorContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public var environment: AppStoreEnvironment?
    public var bundleId = ""

    public init(source: Source) { coreContext = .init(source: source) }
}

/// Writes the store after every request but a GET, so that a restarted simulator knows what it knew.
struct StateKeeper: RouterMiddleware {
    typealias Context = SimulatorContext
    let store: SimulatorStore
    let file: URL

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response = try await next(request, context)
        if request.method != .get {
            do { try await store.save(to: file) } catch {
                context.logger.error("simulator state not saved", metadata: ["file": .string(file.path), "error": .string("\(error)")])
            }
        }
        return response
    }
}
