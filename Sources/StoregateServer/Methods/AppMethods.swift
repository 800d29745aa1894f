import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `apps.*`: the tenant's apps, their key IDs and notification URLs.
enum AppMethods {
    static let all = [list, get]

    static let list = RPCMethod<RPCCall>(
        "apps.list", tag: "apps", summary: "The tenant's apps.",
        description: "Every app of the calling tenant with its key IDs and kinds (never key material) and its notification URLs.", result: "apps"
    ) { (_: NoParams, call) in
        AppList(apps: try await call.capabilities.apps.list(tenant: call.caller.tenant).map { AppView($0, publicURL: call.publicURL) })
    }

    @RPCParams struct GetParams {
        /// The app's bundle ID.
        @Field(.bundleId) let bundleId: String?
        /// Storegate's id of the app.
        let appId: UUID?
    }

    static let get = RPCMethod<RPCCall>(
        "apps.get", tag: "apps", summary: "One app by bundle ID or app id.",
        description: "Give exactly one of `bundleId` and `appId`. Another tenant's app is reported exactly like an app that does not exist.", result: "app",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (params: GetParams, call) in
        switch (params.bundleId, params.appId) {
        case (let bundleId?, nil):
            return AppView(try await call.capabilities.apps.get(tenant: call.caller.tenant, bundleId: bundleId), publicURL: call.publicURL)
        case (nil, let appId?): return AppView(try await call.capabilities.apps.get(tenant: call.caller.tenant, appId: appId), publicURL: call.publicURL)
        default: throw StoregateError.invalid(field: "bundleId", reason: "give exactly one of bundleId and appId")
        }
    }
}

@RPCObject struct AppList {
    let apps: [AppView]
}

/// What RPC results show of an app: public facts, key ids and kinds, notification URLs. Never key material.
@RPCObject(title: "App") struct AppView {
    @RPCObject struct Key {
        @Field(.keyId) let keyId: String
        @Field(.uuid) let issuerId: String
        let kind: AppKey.Kind
        let createdAt: Date
    }

    @Field(.uuid) let id: String
    @Field(.bundleId) let bundleId: String
    @Field(.minimum(1)) let appAppleId: Int64?
    @Field(.appEnvironment) let environments: [String]
    let keys: [Key]
    /// Paste into App Store Connect → App Information → App Store Server Notifications (Version 2).
    @Field(.url(maxLength: 2048)) let notificationURLs: [String: String]

    init(_ details: AppDetails, publicURL: String) {
        id = details.app.id.uuidString.lowercased()
        bundleId = details.app.bundleId
        appAppleId = details.app.appAppleId
        environments = details.app.environments.map(\.rawValue)
        keys = details.keys.map { Key(keyId: $0.keyId, issuerId: $0.issuerId.uuidString.lowercased(), kind: $0.kind, createdAt: $0.createdAt) }
        notificationURLs = Dictionary(
            uniqueKeysWithValues: details.notificationURLs.map {
                ($0.environment.rawValue, AppleEndpoint.notifications.url(publicURL: publicURL, token: $0.token))
            })
    }
}
