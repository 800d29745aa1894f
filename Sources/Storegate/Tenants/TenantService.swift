import Foundation

/// Creating, listing, suspending, deleting and exporting tenants.
public struct TenantService: Sendable {
    let persistence: any Persistence
    let signingKeys: SigningKeyStore

    /// Creates the tenant and its storage with the whole schema, in one transaction.
    public func create(slug: String, name: String, actor: Actor) async throws -> Tenant {
        let slug = try Validate.slug(slug)
        let name = try Validate.text(name, field: "name")
        return try await persistence.control(.schemaChange, conflictField: "slug") { unit in
            try await Self.create(slug: slug, name: name, actor: actor, in: unit)
        }
    }

    static func create(slug: String, name: String, actor: Actor, in unit: any ControlUnit) async throws -> Tenant {
        let tenant = try await unit.tenants.create(slug: slug, name: name)
        try await unit.inTenant(tenant).audit(actor, "tenant.create", ["slug": slug])
        return tenant
    }

    public func list() async throws -> [Tenant] {
        try await persistence.control(.read) { try await $0.tenants.list() }
    }

    public func get(slug: String) async throws -> Tenant {
        let slug = try Validate.slug(slug)
        guard let tenant = try await persistence.control(.read, { try await $0.tenants.find(slug: slug, forUpdate: false) }) else {
            throw StoregateError.notFound(field: "tenant", value: slug)
        }
        return tenant
    }

    public func get(id: UUID) async throws -> Tenant {
        guard let tenant = try await persistence.tenant(id: id) else { throw StoregateError.notFound(field: "tenantId") }
        return tenant
    }

    /// Suspends or resumes a tenant; its API keys are refused while suspended.
    public func setStatus(slug: String, _ status: Tenant.Status, actor: Actor) async throws -> Tenant {
        let slug = try Validate.slug(slug)
        return try await persistence.control { unit in
            guard var tenant = try await unit.tenants.find(slug: slug, forUpdate: true) else { throw StoregateError.notFound(field: "tenant", value: slug) }
            guard tenant.status != status else { return tenant }
            try await unit.tenants.setStatus(tenant, status)
            try await unit.inTenant(tenant).audit(actor, status == .suspended ? "tenant.suspend" : "tenant.resume", [:])
            tenant.status = status
            return tenant
        }
    }

    /// Drops the tenant's data and destroys its key material, in one transaction; the audit log keeps a record.
    public func delete(slug: String, confirm: String, actor: Actor) async throws {
        let slug = try Validate.slug(slug)
        guard confirm == slug else { throw StoregateError.invalid(field: "confirm", reason: "must repeat the slug (\(slug)) to delete the tenant") }
        let keys = try await persistence.control(.schemaChange) { unit in
            guard let tenant = try await unit.tenants.find(slug: slug, forUpdate: true) else { throw StoregateError.notFound(field: "tenant", value: slug) }
            let keys = try await unit.tenants.delete(tenant)
            try await unit.audit([
                try NewAuditEntry(actor: actor, tenantId: tenant.id, action: "tenant.delete", detail: ["slug": slug, "keysDestroyed": String(keys.count)])
            ])
            return keys
        }
        signingKeys.forget(keys)
    }
}
