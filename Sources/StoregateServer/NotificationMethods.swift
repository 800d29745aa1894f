import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `notifications.*`: what Apple sent the tenant's apps.
enum NotificationMethods {
    static let all = [list, requestTest, testStatus, backfill]

    struct ListParams: RPCParams {
        let bundleId: String?
        let limit: Int?

        static let parameters: [RPCParam] = [
            RPCParam("bundleId", "Only this app's notifications.", schema: AppView.bundleIdSchema, required: false),
            RPCParam("limit", "At most this many (1…200, default 50).", schema: Schema.integer(minimum: 1), required: false),
        ]
    }

    struct Item: Encodable, Sendable {
        let notificationUUID: String
        let bundleId: String
        let environment: String
        let notificationType: String
        let subtype: String?
        let signedDate: Date?
        let receivedAt: Date?
        let processedAt: Date?
        let processingError: String?
    }

    struct ListResult: RPCResult {
        let notifications: [Item]

        static let schema: JSONValue = Schema.object(
            [
                (
                    "notifications",
                    Schema.array(
                        of: Schema.object(
                            [
                                ("notificationUUID", Schema.string(format: "uuid")), ("bundleId", Schema.string()),
                                ("environment", Schema.enumeration(["Production", "Sandbox", "Xcode", "LocalTesting"])), ("notificationType", Schema.string()),
                                ("subtype", Schema.string()), ("signedDate", Schema.string(format: "date-time")),
                                ("receivedAt", Schema.string(format: "date-time")),
                                ("processedAt", Schema.string("When it was applied; absent while it waits to be.", format: "date-time")),
                                ("processingError", Schema.string("Why applying it changed nothing, e.g. nested signed data that failed verification.")),
                            ], required: ["notificationUUID", "bundleId", "environment", "notificationType"]))
                )
            ], required: ["notifications"])
    }

    static let list = RPCMethod<RPCCall>(
        "notifications.list", tag: "notifications", summary: "The notifications Apple sent, newest first.",
        description: "Every App Store Server Notification V2 received for the tenant's apps (or one app), as stored.", result: "notifications",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (params: ListParams, call) in
        let limit = params.limit ?? 50
        guard (1...200).contains(limit) else { throw StoregateError.invalid(field: "limit", reason: "must be 1 to 200") }
        let apps = try await call.services.apps.list(tenant: call.caller.tenant)
        var appId: UUID?
        if let bundleId = params.bundleId {
            _ = try Validate.bundleId(bundleId)
            guard let app = apps.first(where: { $0.app.bundleId == bundleId }) else { throw StoregateError.notFound(field: "bundleId") }
            appId = app.app.id
        }
        let bundles = Dictionary(uniqueKeysWithValues: apps.map { ($0.app.id, $0.app.bundleId) })
        let stored = try await call.services.notifications.list(tenant: call.caller.tenant, appId: appId, limit: limit)
        return ListResult(
            notifications: stored.map {
                Item(
                    notificationUUID: $0.notificationUUID.uuidString.lowercased(), bundleId: bundles[$0.appId] ?? "", environment: $0.environment.rawValue,
                    notificationType: $0.notificationType.rawValue, subtype: $0.subtype?.rawValue, signedDate: $0.signedDate, receivedAt: $0.receivedAt,
                    processedAt: $0.processedAt, processingError: $0.processingError)
            })
    }
}
