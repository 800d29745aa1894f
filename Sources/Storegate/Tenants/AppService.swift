import AppStoreServer
import Crypto
import Foundation
import KeyVault

/// An app as the tenant sees it: public facts, key ids and kinds, notification URL tokens.
public struct AppDetails: Sendable {
    public let app: App
    public let keys: [AppKey]
    public let notificationURLs: [NotificationURL]
}

/// Apps and their App Store Connect keys, always within one tenant.
public struct AppService: Sendable {
    let persistence: any Persistence
    let vault: KeyVault
    let signingKeys: SigningKeyStore

    public func add(tenant: Tenant, bundleId: String, appAppleId: Int64?, environments: [String], actor: Actor) async throws -> AppDetails {
        let bundleId = try Validate.bundleId(bundleId)
        let appAppleId = try Validate.appAppleId(appAppleId)
        let environments = try Validate.environments(environments)
        return try await persistence.inTenant(tenant, conflictField: "bundleId") { unit in
            let app = try await Self.insert(bundleId: bundleId, appAppleId: appAppleId, environments: environments, actor: actor, in: unit)
            return try await Self.details(app, in: unit)
        }
    }

    static func insert(bundleId: String, appAppleId: Int64?, environments: [AppStoreEnvironment], actor: Actor, in unit: any TenantUnit) async throws -> App {
        let app = App(id: UUID(), tenantId: unit.tenant.id, bundleId: bundleId, appAppleId: appAppleId, environments: environments, createdAt: Date())
        try await unit.apps.insert(app)
        try await ensureWebhooks(app, in: unit)
        try await unit.audit(actor, "app.add", ["bundleId": bundleId])
        return app
    }

    static func ensureWebhooks(_ app: App, in unit: any TenantUnit) async throws {
        for environment in app.environments {
            try await unit.apps.insertNotificationURL(NotificationURL(token: Secret.token(), tenantId: app.tenantId, appId: app.id, environment: environment))
        }
    }

    public func list(tenant: Tenant) async throws -> [AppDetails] {
        try await persistence.inTenant(tenant, .read) { unit in
            var out: [AppDetails] = []
            for app in try await unit.apps.list() { out.append(try await Self.details(app, in: unit)) }
            return out
        }
    }

    /// The app with this bundle ID in this tenant; another tenant's app is simply not found.
    public func get(tenant: Tenant, bundleId: String) async throws -> AppDetails {
        let bundleId = try Validate.bundleId(bundleId)
        return try await persistence.inTenant(tenant, .read) { unit in
            guard let app = try await unit.apps.find(bundleId: bundleId) else { throw StoregateError.notFound(field: "bundleId") }
            return try await Self.details(app, in: unit)
        }
    }

    public func get(tenant: Tenant, appId: UUID) async throws -> AppDetails {
        try await persistence.inTenant(tenant, .read) { unit in
            guard let app = try await unit.apps.find(id: appId) else { throw StoregateError.notFound(field: "appId") }
            return try await Self.details(app, in: unit)
        }
    }

    static func details(_ app: App, in unit: any TenantUnit) async throws -> AppDetails {
        AppDetails(app: app, keys: try await unit.apps.keys(appId: app.id), notificationURLs: try await unit.apps.notificationURLs(appId: app.id))
    }

    /// Removes an app with its keys (destroyed) and notification URLs.
    public func remove(tenant: Tenant, bundleId: String, actor: Actor) async throws {
        let bundleId = try Validate.bundleId(bundleId)
        let keys = try await persistence.inTenant(tenant) { unit in
            guard let app = try await unit.apps.find(bundleId: bundleId) else { throw StoregateError.notFound(field: "bundleId") }
            let keys = try await unit.apps.keys(appId: app.id)
            try await unit.apps.delete(app)
            try await unit.audit(actor, "app.remove", ["bundleId": bundleId])
            return keys.map(\.id)
        }
        signingKeys.forget(keys)
    }

    /// Checks and seals a `.p8` key for an app. Importing the same key again changes nothing; another key
    /// under the same key ID is refused.
    public func importKey(tenant: Tenant, bundleId: String, keyId: String, issuerId: String, p8 pem: String, actor: Actor) async throws -> AppKey {
        let bundleId = try Validate.bundleId(bundleId)
        let key = try KeyImport(keyId: keyId, issuerId: issuerId, pem: pem)
        return try await persistence.inTenant(tenant, conflictField: "keyId") { unit in
            guard let app = try await unit.apps.find(bundleId: bundleId) else { throw StoregateError.notFound(field: "bundleId") }
            return try await store(key, app: app, actor: actor, in: unit).key
        }
    }

    /// Stores `key` for `app` unless the same key is there already; returns whether it inserted.
    func store(_ key: KeyImport, app: App, actor: Actor, field: String = "keyId", in unit: any TenantUnit) async throws -> (key: AppKey, inserted: Bool) {
        if let existing = try await unit.apps.keys(appId: app.id).first(where: { $0.keyId == key.keyId }) {
            guard existing.publicKey == key.publicKey, existing.issuerId == key.issuerId else {
                throw StoregateError.conflict(field: field, reason: "\(app.bundleId) already has a different key with ID \(key.keyId); remove it first")
            }
            // The same key again changes nothing, but only with the master key that opens it: without one,
            // or with another, it fails as importing a new key would.
            guard let sealed = try await unit.apps.sealedKey(id: existing.id) else { throw StoregateError.notFound(field: field) }
            _ = try vault.open(sealed, associatedData: KeyVault.associatedData(tenantId: app.tenantId, appId: app.id, keyId: key.keyId))
            return (existing, false)
        }
        let record = AppKey(
            id: UUID(), tenantId: app.tenantId, appId: app.id, kind: .inAppPurchase, keyId: key.keyId, issuerId: key.issuerId, publicKey: key.publicKey,
            createdAt: Date())
        let sealed = try vault.seal(key.privateKey, associatedData: KeyVault.associatedData(tenantId: app.tenantId, appId: app.id, keyId: key.keyId))
        try await unit.apps.insertKey(record, sealed: sealed)
        try await unit.audit(actor, "app.key.import", ["bundleId": app.bundleId, "keyId": key.keyId])
        return (record, true)
    }
}

/// A checked key ready to seal: the private key is held only as its raw 32 bytes.
struct KeyImport: Sendable {
    let keyId: String
    let issuerId: UUID
    let publicKey: Data
    let privateKey: Data

    init(keyId: String, issuerId: String, pem: String, field: String = "") throws(StoregateError) {
        let prefix = field.isEmpty ? "" : field + "."
        self.keyId = try Validate.keyId(keyId, field: prefix + "keyId")
        self.issuerId = try Validate.issuerId(issuerId, field: prefix + "issuerId")
        let key: P256.Signing.PrivateKey
        do {
            key = try PrivateKeyPEM.parse(pem)
        } catch {
            throw .invalid(field: prefix + "p8", reason: error.description)
        }
        self.publicKey = key.publicKey.x963Representation
        self.privateKey = key.rawRepresentation
    }
}
