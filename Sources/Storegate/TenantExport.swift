import Foundation
import PostgresNIO
import StoregatePostgres

extension TenantService {
    /// All of a tenant's data as one JSON document: the tenant, its apps with key ids and public keys,
    /// API key prefixes, its audit log, and every table of its schema. Private keys, their ciphertexts,
    /// API key hashes and webhook tokens are never part of it.
    public func export(slug: String) async throws -> Data {
        let tenant = try await get(slug: slug)
        return try await database.withConnection { conn in
            let apps = try await repositories.apps.list(tenantId: tenant.id, on: conn)
            let keys = try await repositories.apps.keys(tenantId: tenant.id, on: conn)
            let head = ExportHead(
                tenant: .init(id: tenant.id, slug: tenant.slug, name: tenant.name, status: tenant.status.rawValue, schemaVersion: tenant.schemaVersion, createdAt: tenant.createdAt),
                apps: apps.map { app in
                    .init(
                        id: app.id, bundleId: app.bundleId, appAppleId: app.appAppleId, environments: app.environments,
                        keys: keys.filter { $0.appId == app.id }.map {
                            .init(keyId: $0.keyId, issuerId: $0.issuerId, kind: $0.kind, publicKey: $0.publicKey.base64EncodedString(), createdAt: $0.createdAt)
                        })
                },
                apiKeys: try await repositories.apiKeys.list(tenantId: tenant.id, on: conn).map {
                    .init(prefix: $0.prefix, label: $0.label, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt, revokedAt: $0.revokedAt)
                },
                auditLog: try await repositories.audit.entries(tenantId: tenant.id, on: conn))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            var out = Data(try encoder.encode(head).dropLast())
            out.append(contentsOf: #","tables":{"#.utf8)
            let tables = try await tableNames(tenant.schema, on: conn)
            for (i, table) in tables.enumerated() {
                let rows = try await conn.first(
                    "SELECT coalesce(jsonb_agg(to_jsonb(x)), '[]'::jsonb)::text FROM \(unescaped: tenant.schema.sql).\(unescaped: "\"\(table)\"") x",
                    as: String.self, logger: database.logger) ?? "[]"
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: "\"\(table)\":".utf8)
                out.append(contentsOf: rows.utf8)
            }
            out.append(contentsOf: "}}\n".utf8)
            return out
        }
    }

    /// The tables of a tenant schema; names are checked before they are spliced into SQL.
    private func tableNames(_ schema: TenantSchema, on conn: PostgresConnection) async throws -> [String] {
        var names: [String] = []
        let rows = try await conn.query(
            """
            SELECT c.relname::text FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = \(schema.name) AND c.relkind IN ('r', 'p') ORDER BY c.relname
            """, logger: database.logger)
        for try await name in rows.decode(String.self) where name.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F }) {
            names.append(name)
        }
        return names
    }
}

private struct ExportHead: Encodable {
    struct Tenant: Encodable {
        let id: UUID
        let slug: String
        let name: String
        let status: String
        let schemaVersion: Int
        let createdAt: Date
    }
    struct App: Encodable {
        let id: UUID
        let bundleId: String
        let appAppleId: Int64?
        let environments: [String]
        let keys: [Key]
    }
    struct Key: Encodable {
        let keyId: String
        let issuerId: UUID
        let kind: String
        let publicKey: String
        let createdAt: Date
    }
    struct APIKey: Encodable {
        let prefix: String
        let label: String
        let createdAt: Date
        let lastUsedAt: Date?
        let revokedAt: Date?
    }
    let tenant: Tenant
    let apps: [App]
    let apiKeys: [APIKey]
    let auditLog: [AuditLog.Entry]
}
