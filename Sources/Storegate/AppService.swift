import Crypto
import Foundation
import AppStoreServer
import KeyVault
import PostgresNIO
import StoregatePostgres

/// An app as the tenant sees it: public facts, key ids and kinds, notification URL tokens.
public struct AppDetails: Sendable {
    public let app: AppRecord
    public let keys: [AppKeyRecord]
    public let webhooks: [WebhookRecord]
}

/// Apps and their App Store Connect keys, always within one tenant.
public struct AppService: Sendable {
    let database: Database
    let vault: KeyVault
    let repositories: Repositories
    let signingKeys: SigningKeyStore

    /// The only key kind so far: an In-App Purchase key, which signs App Store Server API tokens and offers.
    public static let inAppPurchaseKind = "inAppPurchase"

    public func add(tenantId: UUID, bundleId: String, appAppleId: Int64?, environments: [String], actor: Actor) async throws -> AppDetails {
        let bundleId = try Validate.bundleId(bundleId)
        let appAppleId = try Validate.appAppleId(appAppleId)
        let environments = try Validate.environments(environments)
        return try await database.transaction(conflictField: "bundleId") { conn in
            let app = try await insert(tenantId: tenantId, bundleId: bundleId, appAppleId: appAppleId, environments: environments, actor: actor, on: conn)
            return try await details(app, on: conn)
        }
    }

    func insert(tenantId: UUID, bundleId: String, appAppleId: Int64?, environments: [String], actor: Actor, on conn: PostgresConnection) async throws -> AppRecord {
        let app = AppRecord(id: UUID(), tenantId: tenantId, bundleId: bundleId, appAppleId: appAppleId, environments: environments, createdAt: Date())
        try await repositories.apps.insert(app, on: conn)
        try await ensureWebhooks(app, on: conn)
        try await repositories.audit.record(actor: actor.description, tenantId: tenantId, action: "app.add", detail: ["bundleId": bundleId], on: conn)
        return app
    }

    func ensureWebhooks(_ app: AppRecord, on conn: PostgresConnection) async throws {
        for environment in app.environments {
            try await repositories.apps.insertWebhook(
                WebhookRecord(token: Secret.token(), tenantId: app.tenantId, appId: app.id, environment: environment), on: conn)
        }
    }

    public func list(tenantId: UUID) async throws -> [AppDetails] {
        try await database.withConnection { conn in
            var out: [AppDetails] = []
            for app in try await repositories.apps.list(tenantId: tenantId, on: conn) { out.append(try await details(app, on: conn)) }
            return out
        }
    }

    /// The app with this bundle ID in this tenant; another tenant's app is simply not found.
    public func get(tenantId: UUID, bundleId: String) async throws -> AppDetails {
        let bundleId = try Validate.bundleId(bundleId)
        return try await database.withConnection { conn in
            guard let app = try await repositories.apps.find(tenantId: tenantId, bundleId: bundleId, on: conn) else {
                throw StoregateError.notFound(field: "bundleId")
            }
            return try await details(app, on: conn)
        }
    }

    public func get(tenantId: UUID, appId: UUID) async throws -> AppDetails {
        try await database.withConnection { conn in
            guard let app = try await repositories.apps.find(tenantId: tenantId, id: appId, on: conn) else { throw StoregateError.notFound(field: "appId") }
            return try await details(app, on: conn)
        }
    }

    func details(_ app: AppRecord, on conn: PostgresConnection) async throws -> AppDetails {
        AppDetails(
            app: app, keys: try await repositories.apps.keys(tenantId: app.tenantId, appId: app.id, on: conn),
            webhooks: try await repositories.apps.webhooks(tenantId: app.tenantId, appId: app.id, on: conn))
    }

    /// Removes an app with its keys (destroyed) and webhooks.
    public func remove(tenantId: UUID, bundleId: String, actor: Actor) async throws {
        let bundleId = try Validate.bundleId(bundleId)
        let keyRows = try await database.transaction { conn in
            guard let app = try await repositories.apps.find(tenantId: tenantId, bundleId: bundleId, on: conn) else {
                throw StoregateError.notFound(field: "bundleId")
            }
            let keys = try await repositories.apps.keys(tenantId: tenantId, appId: app.id, on: conn)
            try await repositories.apps.delete(tenantId: tenantId, id: app.id, on: conn)
            try await repositories.audit.record(actor: actor.description, tenantId: tenantId, action: "app.remove", detail: ["bundleId": bundleId], on: conn)
            return keys.map(\.id)
        }
        signingKeys.forget(keyRows)
    }

    /// Checks and seals a `.p8` key for an app. Importing the same key again changes nothing; another key
    /// under the same key ID is refused.
    public func importKey(tenantId: UUID, bundleId: String, keyId: String, issuerId: String, p8 pem: String, actor: Actor) async throws -> AppKeyRecord {
        let bundleId = try Validate.bundleId(bundleId)
        let key = try KeyImport(keyId: keyId, issuerId: issuerId, pem: pem)
        return try await database.transaction(conflictField: "keyId") { conn in
            guard let app = try await repositories.apps.find(tenantId: tenantId, bundleId: bundleId, on: conn) else {
                throw StoregateError.notFound(field: "bundleId")
            }
            return try await store(key, app: app, actor: actor, on: conn).record
        }
    }

    /// Stores `key` for `app` unless the same key is there already; returns whether it inserted.
    func store(_ key: KeyImport, app: AppRecord, actor: Actor, field: String = "keyId", on conn: PostgresConnection) async throws -> (record: AppKeyRecord, inserted: Bool) {
        let existing = try await repositories.apps.keys(tenantId: app.tenantId, appId: app.id, on: conn).first { $0.keyId == key.keyId }
        if let existing {
            guard existing.publicKey == key.publicKey, existing.issuerId == key.issuerId else {
                throw StoregateError.conflict(field: field, reason: "\(app.bundleId) already has a different key with ID \(key.keyId); remove it first")
            }
            return (existing, false)
        }
        let record = AppKeyRecord(
            id: UUID(), tenantId: app.tenantId, appId: app.id, kind: Self.inAppPurchaseKind, keyId: key.keyId, issuerId: key.issuerId,
            publicKey: key.publicKey, createdAt: Date())
        let sealed = try vault.seal(key.privateKey, associatedData: KeyVault.associatedData(tenantId: app.tenantId, appId: app.id, keyId: key.keyId))
        try await repositories.apps.insertKey(record, sealed: sealed, on: conn)
        try await repositories.audit.record(
            actor: actor.description, tenantId: app.tenantId, action: "app.key.import", detail: ["bundleId": app.bundleId, "keyId": key.keyId], on: conn)
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

/// Random secrets: base32 for API keys, base64url for webhook tokens.
enum Secret {
    static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    static func token() -> String {
        Data(bytes(32)).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func base32(_ count: Int) -> String {
        let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz")
        return String(bytes(count).map { alphabet[Int($0 & 31)] })
    }
}
