import AppStoreServer
import Foundation
import Hummingbird

/// Apple serves Production and Sandbox from two hosts, each with only its own data. The simulator serves
/// them under two paths of one address: `<address>/production/inApps/…` and `<address>/sandbox/inApps/…`
/// (`<address>/inApps/…` answers for whichever environment the app was registered in). An app's data lives
/// in the environment it was registered in; asked in the other, the simulator answers as Apple does for an
/// app with no data there: not found, an invalid order, an empty notification history.
enum EnvironmentPaths {
    /// Routes `/production/…` and `/sandbox/…` as the path without the environment, which it puts in the
    /// context (ahead of the router, which matches a path before its middleware runs).
    struct Responder<Router: HTTPResponder<SimulatorContext>>: HTTPResponder {
        let router: Router

        func respond(to request: Request, context: SimulatorContext) async throws -> Response {
            guard let (environment, rest) = split(request.uri.path) else { return try await router.respond(to: request, context: context) }
            var head = request.head
            head.path = rest + (request.uri.query.map { "?" + $0 } ?? "")
            var context = context
            context.environment = environment
            return try await router.respond(to: Request(head: head, body: request.body), context: context)
        }
    }

    /// The environment a path names and the path without it, or nil for a path that names none.
    static func split(_ path: String) -> (environment: AppStoreEnvironment, rest: String)? {
        for (prefix, environment) in [("/production/", AppStoreEnvironment.production), ("/sandbox/", .sandbox)] where path.hasPrefix(prefix) {
            return (environment, String(path.dropFirst(prefix.count - 1)))
        }
        return nil
    }

    /// What Apple answers in an environment where the app has none of the data asked for; nil when the
    /// request does not read or change a customer's data (it is answered as usual).
    static func emptyAnswer(method: HTTPRequest.Method, path: String) -> Response? {
        let parts = path.split(separator: "/").map(String.init)  // inApps (or advancedCommerce), v1, …
        guard parts.count >= 3 else { return nil }
        let route = parts.dropFirst(2)
        switch (method, route.first) {
        case (.get, "lookup"):
            return AppStoreSimulator.json(OrderLookupResponse(status: .invalid, signedTransactions: []))
        case (.post, "notifications") where route.dropFirst().first == "history":
            return AppStoreSimulator.json(NotificationHistoryResponse(paginationToken: nil, hasMore: false, notificationHistory: []))
        case (_, "notifications"):
            return nil
        case (.get, "transactions") where route.dropFirst().first == "appTransactions":
            return AppStoreSimulator.error(.appTransactionDoesNotExist, "No AppTransaction exists for the customer.", status: .notFound)
        case (.put, "subscriptions") where route.dropFirst().first == "extend":
            return AppStoreSimulator.error(.originalTransactionIdNotFound, "Original transaction id not found.", status: .notFound)
        case (_, "subscriptions") where route.dropFirst().first == "extend":
            return nil
        case (_, "transactions"), (_, "history"), (_, "subscriptions"), (_, "refund"), (_, "subscription"), (_, "transaction"):
            return AppStoreSimulator.error(.transactionIdNotFound, "Transaction id not found.", status: .notFound)
        default:
            return nil
        }
    }
}
