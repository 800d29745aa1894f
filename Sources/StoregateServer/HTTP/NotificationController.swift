import AppStoreServer
import Foundation
import Hummingbird
import Logging
import NIOCore
import Storegate

/// `POST /apple/notifications/{token}`: App Store Server Notifications V2. A notification is answered
/// 200 only once it is stored (a duplicate is answered 200 and not stored again); an invalid one gets
/// 400 (404 for an unknown token); a failure that may pass later (a retryable verification failure, a
/// database that is away) gets 503,
/// and any other failure 500, so Apple sends it again.
struct NotificationController: Sendable {
    let ingest: NotificationIngest
    let maxBodyBytes = 256 * 1024

    func addRoutes(to router: Router<StoregateRequestContext>) {
        router.post("/apple/notifications/:token") { request, context in try await receive(request, context: context) }
    }

    func receive(_ request: Request, context: StoregateRequestContext) async throws -> Response {
        let token = try context.parameters.require("token")
        guard let body = try await request.collectBody(upTo: maxBodyBytes) else { return Response(status: .contentTooLarge) }
        do {
            switch try await ingest.receive(token: token, body: Data(body.readableBytesView)) {
            case .stored(let uuid):
                context.logger.info("notification stored", metadata: ["notification.uuid": .string(uuid.uuidString.lowercased())])
                return Response(status: .ok)
            case .duplicate(let uuid):
                context.logger.info("notification already stored", metadata: ["notification.uuid": .string(uuid.uuidString.lowercased())])
                return Response(status: .ok)
            case .unknownToken:
                context.logger.warning("notification for an unknown webhook token")
                return Response(status: .notFound)
            case .malformedBody:
                context.logger.warning("notification body is not {\"signedPayload\": …}")
                return Response(status: .badRequest)
            case .rejected(let failure):
                context.logger.warning("notification refused", metadata: ["verification": .string(failure.code), "reason": .string(failure.description)])
                return Response(status: failure.isRetryable ? .serviceUnavailable : .badRequest)
            }
        } catch StoregateError.unavailable(let reason) {
            context.logger.warning("notification not stored: database unavailable", metadata: ["reason": .string(reason)])
            return Response(status: .serviceUnavailable, headers: [.retryAfter: String(ErrorCode.retryAfterSeconds)])
        } catch {
            context.logger.error("notification could not be stored", metadata: ["error": .string(String(reflecting: error))])
            return Response(status: .internalServerError)
        }
    }
}
