import AppStoreServer
import Foundation
import KeyVault

public protocol TenantRegistry: Sendable {
    /// Creates the tenant and its storage, at the latest schema version.
    func create(slug: String, name: String) async throws -> Tenant
    func find(slug: String, forUpdate: Bool) async throws -> Tenant?
    func find(id: UUID) async throws -> Tenant?
    func list() async throws -> [Tenant]
    func rename(_ tenant: Tenant, to name: String) async throws
    func setReconciliation(_ tenant: Tenant, _ reconciliation: Tenant.Reconciliation) async throws
    /// Stores the windows the tenant set (a kind not set is stored as its default).
    func setDataRetention(_ tenant: Tenant, _ retention: DataRetention) async throws
    func setStatus(_ tenant: Tenant, _ status: Tenant.Status) async throws
    /// Drops the tenant's storage and its rows (apps, keys, API keys go with it); returns the ids of the keys destroyed.
    func delete(_ tenant: Tenant) async throws -> [UUID]
}
public protocol APIKeyLookup: Sendable {
    /// The key with this prefix, the hash of its secret and its tenant, in one round trip; revoked keys
    /// too, so the caller can tell.
    func resolve(prefix: String) async throws -> (key: APIKey, secretHash: Data, tenant: Tenant)?
    /// Marks the keys used now, without waiting for the mark to be durable: a crash may lose it, and it
    /// is only kept to within `APIKey.lastUseResolution` anyway.
    func touch(ids: [UUID]) async throws
}
public protocol SealedKeyRewrap: Sendable {
    /// Keys not sealed with `masterKeyId`, locked for re-wrapping, a batch at a time.
    func sealedWithOther(than masterKeyId: String, limit: Int) async throws -> [(key: AppKey, sealed: SealedKey)]
    func replaceSealed(keyId: UUID, _ sealed: SealedKey) async throws
    /// Webhook signing secrets not sealed with `masterKeyId`, locked, a batch at a time.
    func webhookSecretsSealedWithOther(than masterKeyId: String, limit: Int) async throws -> [(tenantId: UUID, secret: SealedWebhookSecret)]
    func replaceSealed(webhookSecretId: UUID, _ sealed: SealedKey) async throws
}

/// The tenant's apps, with their App Store Connect keys and notification URL tokens.
public protocol AppRegistry: Sendable {
    func insert(_ app: App) async throws
    func update(_ app: App) async throws
    func delete(_ app: App) async throws
    func find(bundleId: String) async throws -> App?
    func find(id: UUID) async throws -> App?
    func list() async throws -> [App]
    /// The app with this bundle ID and its newest key (or the key with `keyId`), in one read.
    func signingKey(bundleId: String, keyId: String?) async throws -> (app: App, key: AppKey?)?
    func keys(appId: UUID?) async throws -> [AppKey]
    func insertKey(_ key: AppKey, sealed: SealedKey) async throws
    func sealedKey(id: UUID) async throws -> SealedKey?
    /// Adds the notification URL unless the app has one for its environment.
    func insertNotificationURL(_ url: NotificationURL) async throws
    func notificationURLs(appId: UUID) async throws -> [NotificationURL]
    /// The app's retention rules; nil when none were set.
    func retentionRules(appId: UUID) async throws -> [RetentionRule]?
    /// Replaces the app's retention rules (nil removes them); false when the tenant has no such app.
    func setRetentionRules(appId: UUID, _ rules: [RetentionRule]?) async throws -> Bool
}
public protocol APIKeyStore: Sendable {
    func insert(id: UUID, prefix: String, secretHash: Data, label: String) async throws
    func list() async throws -> [APIKey]
    /// Revokes the key with this prefix; false when there is none not yet revoked.
    func revoke(prefix: String) async throws -> Bool
}
