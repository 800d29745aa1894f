import Foundation
import PostgresNIO
import StoregatePostgres

/// What `tenant apply` did.
public struct ApplyResult: Sendable {
    public var tenant: TenantRecord
    /// One line per change; empty when the manifest matched what was stored.
    public var changes: [String] = []
    /// Keys issued by this run: their secrets are shown now and never again.
    public var issuedKeys: [IssuedAPIKey] = []
    public var apps: [AppDetails] = []
}

/// Applies a tenant manifest: creates or updates the tenant, its apps, keys and API keys so that a
/// second run with the same manifest changes nothing. Everything is checked first and then written in
/// one transaction, so a bad manifest leaves nothing half-created. Apply never removes anything.
public struct ManifestApplier: Sendable {
    let services: Services

    public init(services: Services) { self.services = services }

    struct CheckedApp {
        let bundleId: String
        let appAppleId: Int64?
        let environments: [String]
        let keys: [KeyImport]
    }

    /// `baseDirectory` resolves `p8File` paths; `environment` supplies `p8Env` variables.
    public func apply(_ manifest: TenantManifest, baseDirectory: URL, environment: [String: String], actor: Actor) async throws -> ApplyResult {
        let slug = try Validate.slug(manifest.slug)
        let name = try Validate.text(manifest.name, field: "name")
        var apps: [CheckedApp] = []
        for (i, app) in manifest.apps.enumerated() {
            let field = "apps[\(i)]"
            let bundleId = try Validate.bundleId(app.bundleId, field: field + ".bundleId")
            guard !apps.contains(where: { $0.bundleId == bundleId }) else { throw StoregateError.invalid(field: field + ".bundleId", reason: "appears twice") }
            var keys: [KeyImport] = []
            for (j, key) in app.keys.enumerated() {
                let keyField = "\(field).keys[\(j)]"
                let pem = try Self.loadP8(key, field: keyField, baseDirectory: baseDirectory, environment: environment)
                keys.append(try KeyImport(keyId: key.keyId, issuerId: key.issuerId, pem: pem, field: keyField))
            }
            apps.append(
                CheckedApp(
                    bundleId: bundleId, appAppleId: try Validate.appAppleId(app.appAppleId, field: field + ".appAppleId"),
                    environments: try Validate.environments(app.environments, field: field + ".environments"), keys: keys))
        }
        var labels: [String] = []
        for (i, key) in manifest.apiKeys.enumerated() {
            let label = try Validate.text(key.label, field: "apiKeys[\(i)].label", max: 100)
            guard !labels.contains(label) else { throw StoregateError.invalid(field: "apiKeys[\(i)].label", reason: "appears twice") }
            labels.append(label)
        }
        return try await services.database.transaction { conn in
            try await write(slug: slug, name: name, apps: apps, labels: labels, actor: actor, on: conn)
        }
    }

    private func write(slug: String, name: String, apps: [CheckedApp], labels: [String], actor: Actor, on conn: PostgresConnection) async throws -> ApplyResult {
        let repositories = Repositories(logger: services.database.logger)
        try await conn.run("SELECT pg_advisory_xact_lock(hashtextextended(\("manifest:" + slug), 0))", logger: services.database.logger)
        var tenant: TenantRecord
        var result: ApplyResult
        if let existing = try await repositories.tenants.find(slug: slug, on: conn, forUpdate: true) {
            tenant = existing
            result = ApplyResult(tenant: tenant)
            if existing.name != name {
                try await repositories.tenants.update(id: existing.id, name: name, on: conn)
                tenant.name = name
                result.changes.append("tenant \(slug): name updated")
            }
        } else {
            tenant = try await services.tenants.create(slug: slug, name: name, actor: actor, on: conn)
            result = ApplyResult(tenant: tenant, changes: ["tenant \(slug): created"])
        }
        result.tenant = tenant

        for (i, checked) in apps.enumerated() {
            var app: AppRecord
            if let existing = try await repositories.apps.find(tenantId: tenant.id, bundleId: checked.bundleId, on: conn) {
                app = existing
                if existing.appAppleId != checked.appAppleId || existing.environments != checked.environments {
                    try await repositories.apps.update(
                        tenantId: tenant.id, id: existing.id, appAppleId: checked.appAppleId, environments: checked.environments, on: conn)
                    app = AppRecord(
                        id: existing.id, tenantId: tenant.id, bundleId: existing.bundleId, appAppleId: checked.appAppleId,
                        environments: checked.environments, createdAt: existing.createdAt)
                    try await services.apps.ensureWebhooks(app, on: conn)
                    result.changes.append("app \(app.bundleId): updated")
                }
            } else {
                app = try await services.apps.insert(
                    tenantId: tenant.id, bundleId: checked.bundleId, appAppleId: checked.appAppleId, environments: checked.environments, actor: actor, on: conn)
                result.changes.append("app \(app.bundleId): added")
            }
            for (j, key) in checked.keys.enumerated() {
                let stored = try await services.apps.store(key, app: app, actor: actor, field: "apps[\(i)].keys[\(j)].keyId", on: conn)
                if stored.inserted { result.changes.append("app \(app.bundleId): key \(key.keyId) imported") }
            }
            result.apps.append(try await services.apps.details(app, on: conn))
        }

        let active = Set(try await repositories.apiKeys.list(tenantId: tenant.id, on: conn).filter { $0.revokedAt == nil }.map(\.label))
        for label in labels where !active.contains(label) {
            result.issuedKeys.append(try await services.apiKeys.issue(tenantId: tenant.id, label: label, actor: actor, on: conn))
            result.changes.append("api key \(label): issued")
        }
        return result
    }

    static func loadP8(_ key: TenantManifest.Key, field: String, baseDirectory: URL, environment: [String: String]) throws(StoregateError) -> String {
        switch (key.p8File, key.p8Env) {
        case (let file?, nil):
            let url = file.hasPrefix("/") ? URL(fileURLWithPath: file) : baseDirectory.appendingPathComponent(file)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else {
                throw .invalid(field: field + ".p8File", reason: "cannot be read as a UTF-8 file")
            }
            return text
        case (nil, let variable?):
            guard let text = environment[variable], !text.isEmpty else {
                throw .invalid(field: field + ".p8Env", reason: "names an environment variable that is not set")
            }
            return text
        default:
            throw .invalid(field: field, reason: "needs exactly one of p8File and p8Env")
        }
    }
}
