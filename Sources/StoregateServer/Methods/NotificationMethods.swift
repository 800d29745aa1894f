import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `notifications.*`: what Apple sent the tenant's apps.
enum NotificationMethods {
    static let all = [list, requestTest, testStatus, backfill]

    @RPCParams struct ListParams {
        /// Only this app's notifications.
        @Field(.bundleId) let bundleId: String?
        /// At most this many (default 50).
        @Field(.range(1...200)) let limit: Int?
    }

    @RPCObject struct Item {
        @Field(.uuid) let notificationUUID: String
        let bundleId: String
        @Field(.appStoreEnvironment) let environment: String
        let notificationType: String
        let subtype: String?
        let signedDate: Date?
        let receivedAt: Date?
        /// When it was applied; absent while it waits to be.
        let processedAt: Date?
        /// Why applying it changed nothing, e.g. nested signed data that failed verification.
        let processingError: String?
    }

    @RPCObject struct ListResult {
        let notifications: [Item]
    }

    static let list = RPCMethod<RPCCall>(
        "notifications.list", tag: "notifications", summary: "The notifications Apple sent, newest first.",
        description: "Every App Store Server Notification V2 received for the tenant's apps (or one app), as stored.", result: "notifications",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (params: ListParams, call) in
        let limit = params.limit ?? 50
        let apps = try await call.services.apps.list(tenant: call.caller.tenant)
        var appId: UUID?
        if let bundleId = params.bundleId {
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
