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
        /// At most this many.
        @Field(.page(NotificationIngest.receivedPage)) let limit: Int?
    }

    @RPCObject struct ListResult {
        let notifications: [ReceivedNotification]
    }

    static let list = RPCMethod<RPCCall>(
        "notifications.list", tag: "notifications", summary: "The notifications Apple sent, newest first.",
        description: "Every App Store Server Notification V2 received for the tenant's apps (or one app), as stored.", result: "notifications",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (params: ListParams, call) in
        ListResult(
            notifications: try await call.capabilities.notifications.received(tenant: call.caller.tenant, bundleId: params.bundleId, limit: params.limit))
    }
}
