import Foundation
import Logging
import PostgresNIO
import StoregatePostgres

/// Creating, listing, suspending, deleting and exporting tenants.
public struct TenantService: Sendable {
    let database: Database
    let migrator: Migrator
    let repositories: Repositories
    let signingKeys: SigningKeyStore

    /// Creates the tenant row and its schema with the whole chain, in one transaction.
    public func create(slug: String, name: String, actor: Actor) async throws -> TenantRecord {
        let slug = try Validate.slug(slug)
        let name = try Validate.text(name, field: "name")
        return try await database.transaction(conflictField: "slug") { conn in
            try await create(slug: slug, name: name, actor: actor, on: conn)
        }
    }

    func create(slug: String, name: String, actor: Actor, on conn: PostgresConnection) async throws -> TenantRecord {
        let schema = TenantSchema.generate()
        let id = UUID()
        try await migrator.createTenantSchema(schema, on: conn)
        try await repositories.tenants.insert(id: id, slug: slug, name: name, schema: schema, schemaVersion: migrator.tenantChain.latestVersion, on: conn)
        try await repositories.audit.record(actor: actor.description, tenantId: id, action: "tenant.create", detail: ["slug": slug], on: conn)
        guard let tenant = try await repositories.tenants.find(id: id, on: conn) else { throw StoregateError.notFound(field: "slug") }
        return tenant
    }

    public func list() async throws -> [TenantRecord] {
        try await database.withConnection { try await repositories.tenants.list(on: $0) }
    }

    public func get(slug: String) async throws -> TenantRecord {
        let slug = try Validate.slug(slug)
        return try await database.withConnection { conn in
            guard let tenant = try await repositories.tenants.find(slug: slug, on: conn) else { throw StoregateError.notFound(field: "slug") }
            return tenant
        }
    }

    public func get(id: UUID) async throws -> TenantRecord {
        try await database.withConnection { conn in
            guard let tenant = try await repositories.tenants.find(id: id, on: conn) else { throw StoregateError.notFound(field: "tenantId") }
            return tenant
        }
    }

    /// Suspends or resumes a tenant; its API keys are refused while suspended.
    public func setStatus(slug: String, _ status: TenantStatus, actor: Actor) async throws -> TenantRecord {
        let slug = try Validate.slug(slug)
        return try await database.transaction { conn in
            guard var tenant = try await repositories.tenants.find(slug: slug, on: conn, forUpdate: true) else {
                throw StoregateError.notFound(field: "slug")
            }
            guard tenant.status != status else { return tenant }
            try await repositories.tenants.update(id: tenant.id, status: status, on: conn)
            let action = status == .suspended ? "tenant.suspend" : "tenant.resume"
            try await repositories.audit.record(actor: actor.description, tenantId: tenant.id, action: action, on: conn)
            tenant.status = status
            return tenant
        }
    }

    /// Drops the tenant's schema and destroys its key material (the sealed keys go with the rows), in
    /// one transaction; the audit log keeps a record.
    public func delete(slug: String, confirm: String, actor: Actor) async throws {
        let slug = try Validate.slug(slug)
        guard confirm == slug else { throw StoregateError.invalid(field: "confirm", reason: "must repeat the slug (\(slug)) to delete the tenant") }
        let keyRows = try await database.transaction { conn in
            guard let tenant = try await repositories.tenants.find(slug: slug, on: conn, forUpdate: true) else {
                throw StoregateError.notFound(field: "slug")
            }
            try await Migrator.lockTenant(tenant.schema, on: conn, logger: database.logger)
            let keys = try await repositories.apps.keys(tenantId: tenant.id, on: conn)
            try await conn.run("DROP SCHEMA IF EXISTS \(unescaped: tenant.schema.sql) CASCADE", logger: database.logger)
            try await repositories.tenants.delete(id: tenant.id, on: conn)
            try await repositories.audit.record(
                actor: actor.description, tenantId: tenant.id, action: "tenant.delete", detail: ["slug": slug, "keysDestroyed": String(keys.count)],
                on: conn)
            return keys.map(\.id)
        }
        signingKeys.forget(keyRows)
    }
}
