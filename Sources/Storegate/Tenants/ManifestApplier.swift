import AppStoreServer
import Foundation

/// What `tenant apply` did.
public struct ApplyResult: Sendable {
    public var tenant: Tenant
    /// One line per change; empty when the manifest matched what was stored.
    public var changes: [String] = []
    /// Keys issued by this run: their secrets are shown now and never again.
    public var issuedKeys: [IssuedAPIKey] = []
    public var apps: [AppDetails] = []
    /// Webhook endpoints created by this run: their secrets are shown now and never again.
    public var createdWebhooks: [WebhookEndpointWithSecret] = []
    /// What is allowed but likely a mistake (an entitlement no product unlocks).
    public var warnings: [String] = []
}

/// Applies a tenant manifest: creates or updates the tenant, its apps, keys and API keys so that a
/// second run with the same manifest changes nothing. Everything is checked first and then written in
/// one transaction, so a bad manifest leaves nothing half-created. Apply never removes anything
/// (an endpoint whose URL is declared gets the declared filters; one not declared stays).
public struct ManifestApplier: Sendable {
    let capabilities: Capabilities
    /// The tenant's webhook endpoints: `services.webhooks`, or one accepting local receivers (development).
    let webhooks: WebhookService

    public init(capabilities: Capabilities, webhooks: WebhookService? = nil) {
        self.capabilities = capabilities
        self.webhooks = webhooks ?? capabilities.webhooks
    }

    struct CheckedApp {
        let bundleId: String
        let appAppleId: Int64?
        let environments: [AppStoreEnvironment]
        let keys: [KeyImport]
        let retentionRules: [RetentionRule]?
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
                    environments: try Validate.environments(app.environments, field: field + ".environments"), keys: keys,
                    retentionRules: try app.retentionRules?.validated(field: field + ".retentionRules")))
        }
        var labels: [String] = []
        for (i, key) in manifest.apiKeys.enumerated() {
            let label = try Validate.text(key.label, field: "apiKeys[\(i)].label", max: 100)
            guard !labels.contains(label) else { throw StoregateError.invalid(field: "apiKeys[\(i)].label", reason: "appears twice") }
            labels.append(label)
        }
        var webhooks: [WebhookEndpointSpec] = []
        for (i, webhook) in manifest.webhooks.enumerated() {
            var spec = webhook.spec
            spec.url = try await self.webhooks.policy.validate(spec.url, field: "webhooks[\(i)].url")
            guard !webhooks.contains(where: { $0.url == spec.url }) else { throw StoregateError.invalid(field: "webhooks[\(i)].url", reason: "appears twice") }
            webhooks.append(spec)
        }
        let reconciliation = try Self.reconciliation(manifest.reconciliation)
        // The windows the manifest names, the others their defaults; no `dataRetention`: left as they are.
        let dataRetention = try manifest.dataRetention.map { try DataRetention().setting($0.windows, field: "dataRetention.") }
        let catalog = try manifest.catalog?.validated(field: "catalog.")
        let (result, catalogChanged) = try await capabilities.persistence.control(.schemaChange) { unit in
            var result = try await write(
                slug: slug, name: name, apps: apps, labels: labels, webhooks: webhooks, reconciliation: reconciliation, dataRetention: dataRetention,
                actor: actor, in: unit)
            var catalogChanged = false
            if let (catalog, warnings) = catalog {
                catalogChanged = try await CatalogService.write(catalog, actor: actor, field: "catalog.", in: try unit.inTenant(result.tenant))
                if catalogChanged { result.changes.append("catalog: \(catalog.products.count) products, \(catalog.entitlements.count) entitlements set") }
                result.warnings += warnings
            }
            return (result, catalogChanged)
        }
        // Other processes hear of it from the change feed; this one answers with the new catalog at once.
        if catalogChanged { capabilities.catalog.cache.changed(tenant: result.tenant.id) }
        return result
    }

    /// The manifest's reconciliation settings, checked; what is left out is the server's (nil).
    static func reconciliation(_ given: TenantManifest.Reconciliation?) throws(StoregateError) -> Tenant.Reconciliation {
        if let minutes = given?.sweepMinutes, !(0...1440).contains(minutes) {
            throw .invalid(field: "reconciliation.sweepMinutes", reason: "must be 0 (never) to 1440")
        }
        if let minutes = given?.renewalCheckMinutes, !(1...1440).contains(minutes) {
            throw .invalid(field: "reconciliation.renewalCheckMinutes", reason: "must be 1 to 1440")
        }
        return Tenant.Reconciliation(sweepMinutes: given?.sweepMinutes, renewalCheckMinutes: given?.renewalCheckMinutes)
    }

    private func write(
        slug: String, name: String, apps: [CheckedApp], labels: [String], webhooks: [WebhookEndpointSpec], reconciliation: Tenant.Reconciliation,
        dataRetention: DataRetention?, actor: Actor, in control: any ControlUnit
    ) async throws -> ApplyResult {
        var result: ApplyResult
        // Locks the tenant's row (or, for a new slug, its creation) for the rest of the transaction.
        if var existing = try await control.tenants.find(slug: slug, forUpdate: true) {
            result = ApplyResult(tenant: existing)
            if existing.name != name {
                try await control.tenants.rename(existing, to: name)
                existing.name = name
                result.changes.append("tenant \(slug): name updated")
            }
            result.tenant = existing
        } else {
            result = ApplyResult(
                tenant: try await TenantService.create(slug: slug, name: name, actor: actor, in: control), changes: ["tenant \(slug): created"])
        }
        if result.tenant.reconciliation != reconciliation {
            try await control.tenants.setReconciliation(result.tenant, reconciliation)
            result.tenant.reconciliation = reconciliation
            result.changes.append("tenant \(slug): reconciliation \(Self.describe(reconciliation))")
        }
        let unit = try control.inTenant(result.tenant)
        if let dataRetention, result.tenant.dataRetention != dataRetention {
            try await control.tenants.setDataRetention(result.tenant, dataRetention)
            try await unit.audit(actor, "dataRetention.set", DataRetentionService.auditDetail(dataRetention.set))
            result.tenant.dataRetention = dataRetention
            result.changes.append("tenant \(slug): data retention \(Self.describe(dataRetention))")
        }

        for (i, checked) in apps.enumerated() {
            var app: App
            if let existing = try await unit.apps.find(bundleId: checked.bundleId) {
                app = existing
                if existing.appAppleId != checked.appAppleId || existing.environments != checked.environments {
                    app = App(
                        id: existing.id, tenantId: existing.tenantId, bundleId: existing.bundleId, appAppleId: checked.appAppleId,
                        environments: checked.environments,
                        createdAt: existing.createdAt)
                    try await unit.apps.update(app)
                    try await AppService.ensureWebhooks(app, in: unit)
                    result.changes.append("app \(app.bundleId): updated")
                }
            } else {
                app = try await AppService.insert(
                    bundleId: checked.bundleId, appAppleId: checked.appAppleId, environments: checked.environments, actor: actor, in: unit)
                result.changes.append("app \(app.bundleId): added")
            }
            for (j, key) in checked.keys.enumerated() {
                let stored = try await capabilities.apps.store(key, app: app, actor: actor, field: "apps[\(i)].keys[\(j)].keyId", in: unit)
                if stored.inserted { result.changes.append("app \(app.bundleId): key \(key.keyId) imported") }
            }
            if let rules = checked.retentionRules, try await unit.apps.retentionRules(appId: app.id) ?? [] != rules {
                _ = try await unit.apps.setRetentionRules(appId: app.id, rules.isEmpty ? nil : rules)
                try await unit.audit(actor, "retention.rules.set", ["bundleId": app.bundleId, "rules": String(rules.count)])
                result.changes.append("app \(app.bundleId): \(rules.count) retention rules set")
            }
            result.apps.append(try await AppService.details(app, in: unit))
        }

        let active = Set(try await unit.apiKeys.list().filter { $0.revokedAt == nil }.map(\.label))
        for label in labels where !active.contains(label) {
            result.issuedKeys.append(try await APIKeyService.issue(label: label, actor: actor, in: unit))
            result.changes.append("api key \(label): issued")
        }

        let stored = try await unit.webhookEndpoints.list()
        for (i, spec) in webhooks.enumerated() {
            let field = "webhooks[\(i)]"
            let filters = try await WebhookService.filters(spec, field: field, in: unit)
            if var existing = stored.first(where: { $0.url == spec.url }) {
                guard !filters.matches(existing) else { continue }
                filters.apply(to: &existing)
                _ = try await unit.webhookEndpoints.update(existing)
                result.changes.append("webhook \(spec.url): updated")
            } else {
                let created = try await self.webhooks.insert(url: spec.url, filters, actor: actor, in: unit)
                result.createdWebhooks.append(created)
                result.changes.append("webhook \(spec.url): added")
            }
        }
        return result
    }

    static func describe(_ r: Tenant.Reconciliation) -> String {
        let sweeps = r.sweepMinutes.map { $0 == 0 ? "no sweeps" : "sweeps every \($0) min" } ?? "the server's sweeps"
        let checks = r.renewalCheckMinutes.map { "renewal checks \($0) min after expiry" } ?? "the server's renewal checks"
        return sweeps + ", " + checks
    }

    static func describe(_ retention: DataRetention) -> String {
        DataRetention.Kind.allCases.map { kind in
            "\(kind.rawValue) \(DataRetention.describe(minutes: retention.minutes(kind)))\(retention.isDefault(kind) ? " (default)" : "")"
        }.joined(separator: ", ")
    }

    static func loadP8(_ key: TenantManifest.Key, field: String, baseDirectory: URL, environment: [String: String]) throws(StoregateError) -> String {
        switch (key.p8File, key.p8Env) {
        case (let file?, nil):
            let url = file.hasPrefix("/") ? URL(fileURLWithPath: file) : baseDirectory.appendingPathComponent(file)
            guard FileManager.default.fileExists(atPath: url.path) else { throw .invalid(field: field + ".p8File", reason: "names no such file: \(url.path)") }
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
