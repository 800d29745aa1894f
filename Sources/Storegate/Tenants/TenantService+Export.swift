import AppStoreServer
import Foundation

extension TenantService {
    /// All of a tenant's data as one JSON document: the tenant, its apps with key ids and public keys,
    /// API key prefixes, its audit log, and every table of its schema. Private keys, their ciphertexts,
    /// API key hashes and webhook tokens are never part of it.
    public func export(slug: String) async throws -> Data {
        let tenant = try await get(slug: slug)
        return try await persistence.inTenant(tenant, .read) { unit in
            let apps = try await unit.apps.list()
            let keys = try await unit.apps.keys(appId: nil)
            let head = ExportHead(
                tenant: .init(
                    id: ExportID(tenant.id), slug: tenant.slug, name: tenant.name, status: tenant.status.rawValue, schemaVersion: tenant.schemaVersion,
                    createdAt: tenant.createdAt),
                apps: apps.map { app in
                    .init(
                        id: ExportID(app.id), bundleId: app.bundleId, appAppleId: app.appAppleId, environments: app.environments.map(\.rawValue),
                        keys: keys.filter { $0.appId == app.id }.map {
                            .init(
                                keyId: $0.keyId, issuerId: ExportID($0.issuerId), kind: $0.kind.rawValue, publicKey: $0.publicKey.base64EncodedString(),
                                createdAt: $0.createdAt)
                        })
                },
                apiKeys: try await unit.apiKeys.list().map {
                    .init(prefix: $0.prefix, label: $0.label, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt, revokedAt: $0.revokedAt)
                },
                auditLog: try await unit.auditLog().map(ExportHead.Audit.init))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            var out = Data(try encoder.encode(head).dropLast())
            out.append(contentsOf: #","tables":{"#.utf8)
            for (i, table) in try await unit.exportTables().enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: "\"\(table.name)\":".utf8)
                out.append(contentsOf: table.rows.utf8)
            }
            out.append(contentsOf: "}}\n".utf8)
            return out
        }
    }
}

private struct ExportHead: Encodable {
    struct Tenant: Encodable {
        let id: ExportID
        let slug: String
        let name: String
        let status: String
        let schemaVersion: Int
        let createdAt: Date
    }
    struct App: Encodable {
        let id: ExportID
        let bundleId: String
        let appAppleId: Int64?
        let environments: [String]
        let keys: [Key]
    }
    struct Key: Encodable {
        let keyId: String
        let issuerId: ExportID
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
    let auditLog: [Audit]

    /// An audit entry with its detail as the JSON object it is, not as a string holding JSON.
    struct Audit: Encodable {
        let at: Date
        let actor: String
        let action: String
        let detail: [String: DetailValue]

        init(_ entry: AuditEntry) throws {
            at = entry.at
            actor = entry.actor
            action = entry.action
            detail = try JSONDecoder().decode([String: DetailValue].self, from: Data(entry.detail.utf8))
        }
    }

    /// The values audit details hold: text, and counts.
    enum DetailValue: Codable {
        case text(String)
        case number(Int64)
        case flag(Bool)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int64.self) {
                self = .number(number)
            } else if let flag = try? container.decode(Bool.self) {
                self = .flag(flag)
            } else {
                self = .text(try container.decode(String.self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let text): try container.encode(text)
            case .number(let number): try container.encode(number)
            case .flag(let flag): try container.encode(flag)
            }
        }
    }
}

/// A UUID written in lowercase, as everywhere else in Storegate's output (`JSONEncoder` writes uppercase).
private struct ExportID: Encodable {
    let uuid: UUID
    init(_ uuid: UUID) { self.uuid = uuid }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(uuid.uuidString.lowercased())
    }
}
