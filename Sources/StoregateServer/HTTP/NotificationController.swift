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

    func addRoutes(to router: Router<StoregateRequestContext>) {
        router.post(apple: .notifications, maxBodyBytes: 256 * 1024) { request, context in try await receive(request, context: context) }
    }

    func receive(_ request: AppleRequest, context: StoregateRequestContext) async throws -> Response {
        do {
            switch try await ingest.receive(token: request.token, body: request.body) {
            case .stored(let uuid):
                context.logger.info("notification stored", metadata: ["notification.uuid": .string(uuid.uuidString.lowercased())])
                return Response(status: .ok)
            case .duplicate(let uuid):
                context.logger.info("notification already stored", metadata: ["notification.uuid": .string(uuid.uuidString.lowercased())])
                return Response(status: .ok)
            case .unknownToken: return AppleRequest.unknownToken("notification", context: context)
            case .malformedBody: return AppleRequest.malformedBody("notification", context: context)
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
