import Foundation
import Hummingbird
import Logging
import NIOCore

/// The scenario API's failures as JSON naming what is wrong, logged: an unknown app or transaction is 404, a
/// body that is not what the route takes is 400 naming the field (Hummingbird names a missing or mistyped
/// key), and anything else 500 with its reason.
struct ScenarioErrorMiddleware: RouterMiddleware {
    typealias Context = SimulatorContext

    struct Answer: Encodable {
        let error: String
        let field: String?
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let (status, answer) = Self.answer(for: error)
            context.logger.warning(
                "scenario refused", metadata: ["path": .string(request.uri.path), "status": .stringConvertible(status.code), "error": .string(answer.error)])
            return AppStoreSimulator.json(answer, status: status)
        }
    }

    static func answer(for error: any Error) -> (HTTPResponse.Status, Answer) {
        switch error {
        case AppStoreSimulator.ScenarioError.unknownTransaction(let id):
            return (.notFound, Answer(error: "no transaction \(id): make one with POST /simulator/purchases", field: "transactionId"))
        case AppStoreSimulator.ScenarioError.unknownApp(let bundleId):
            return (.notFound, Answer(error: "no app \(bundleId): register it with POST /simulator/apps", field: "bundleId"))
        case AppStoreSimulator.ScenarioError.invalid(let field, let reason):
            return (.badRequest, Answer(error: "\(field) \(reason)", field: field))
        case let error as HTTPError:
            return (error.status, Answer(error: error.body ?? error.status.reasonPhrase, field: nil))
        default:
            return (.internalServerError, Answer(error: String(describing: error), field: nil))
        }
    }
}
