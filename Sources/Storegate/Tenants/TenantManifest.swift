import Contract
import Foundation
import Yams

/// A tenant described declaratively in `tenants/<slug>.yaml` (format: `tenants/README.md`).
public struct TenantManifest: Decodable, Sendable {
    public struct App: Decodable, Sendable {
        public let bundleId: String
        public let appAppleId: Int64?
        public let environments: [String]
        public let keys: [Key]
        /// How Apple's Get Retention Message requests are answered (`retention.rules.set`); absent: left as they are.
        public let retentionRules: [RetentionRule]?

        enum CodingKeys: String, CodingKey, CaseIterable { case bundleId, appAppleId, environments, keys, retentionRules }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
            bundleId = try c.decode(String.self, forKey: .bundleId)
            appAppleId = try c.decodeIfPresent(Int64.self, forKey: .appAppleId)
            environments = try c.decodeIfPresent([String].self, forKey: .environments) ?? ["Sandbox", "Production"]
            keys = try c.decodeIfPresent([Key].self, forKey: .keys) ?? []
            // The rules' members are the RPC's: one misspelt is refused, as `retention.rules.set` refuses it.
            if let raw = try c.decodeIfPresent(JSONValue.self, forKey: .retentionRules), let unknown = [RetentionRule].unknownMember(raw) {
                var path = c.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? "." + key.stringValue }.joined()
                if path.hasPrefix(".") { path.removeFirst() }
                throw StoregateError.invalid(field: path + ".retentionRules" + unknown, reason: "is not a known field")
            }
            retentionRules = try c.decodeIfPresent([RetentionRule].self, forKey: .retentionRules)
        }
    }

    /// A key's `.p8` comes from a file (relative to the manifest) or an environment variable, never inline.
    public struct Key: Decodable, Sendable {
        public let keyId: String
        public let issuerId: String
        public let p8File: String?
        public let p8Env: String?

        enum CodingKeys: String, CodingKey, CaseIterable { case keyId, issuerId, p8File, p8Env }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
            keyId = try c.decode(String.self, forKey: .keyId)
            issuerId = try c.decode(String.self, forKey: .issuerId)
            p8File = try c.decodeIfPresent(String.self, forKey: .p8File)
            p8Env = try c.decodeIfPresent(String.self, forKey: .p8Env)
        }
    }

    public struct APIKey: Decodable, Sendable {
        public let label: String

        enum CodingKeys: String, CodingKey, CaseIterable { case label }

        public init(from decoder: any Decoder) throws {
            label = try decoder.strictContainer(keyedBy: CodingKeys.self).decode(String.self, forKey: .label)
        }
    }

    /// An endpoint the tenant's events are sent to; matched to stored ones by URL.
    public struct Webhook: Decodable, Sendable {
        public let url: String
        public let description: String?
        public let eventTypes: [String]
        public let bundleId: String?
        public let environment: String?

        enum CodingKeys: String, CodingKey, CaseIterable { case url, description, eventTypes, bundleId, environment }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
            url = try c.decode(String.self, forKey: .url)
            description = try c.decodeIfPresent(String.self, forKey: .description)
            eventTypes = try c.decodeIfPresent([String].self, forKey: .eventTypes) ?? []
            bundleId = try c.decodeIfPresent(String.self, forKey: .bundleId)
            environment = try c.decodeIfPresent(String.self, forKey: .environment)
        }

        var spec: WebhookEndpointSpec {
            WebhookEndpointSpec(url: url, description: description ?? "", eventTypes: eventTypes, bundleId: bundleId, environment: environment)
        }
    }

    /// How Storegate reconciles the tenant with Apple; what is left out is the server's setting.
    public struct Reconciliation: Decodable, Sendable {
        /// How often each app's notification history is swept, in minutes (0: never).
        public let sweepMinutes: Int?
        /// How long after a subscription's expiry with no renewal heard of Apple is asked, in minutes.
        public let renewalCheckMinutes: Int?

        enum CodingKeys: String, CodingKey, CaseIterable { case sweepMinutes, renewalCheckMinutes }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
            sweepMinutes = try c.decodeIfPresent(Int.self, forKey: .sweepMinutes)
            renewalCheckMinutes = try c.decodeIfPresent(Int.self, forKey: .renewalCheckMinutes)
        }
    }

    /// How long the tenant keeps each kind of data, in minutes; a kind left out has its default.
    public struct DataRetentionWindows: Decodable, Sendable {
        public let windows: [DataRetention.Kind: Int]

        struct Key: CodingKey, CaseIterable {
            let kind: DataRetention.Kind
            var stringValue: String { kind.rawValue }
            var intValue: Int? { nil }
            init?(stringValue: String) {
                guard let kind = DataRetention.Kind(rawValue: stringValue) else { return nil }
                self.kind = kind
            }
            init?(intValue: Int) { nil }
            init(_ kind: DataRetention.Kind) { self.kind = kind }
            static var allCases: [Key] { DataRetention.Kind.allCases.map(Key.init) }
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.strictContainer(keyedBy: Key.self)
            var windows: [DataRetention.Kind: Int] = [:]
            for key in Key.allCases { windows[key.kind] = try c.decodeIfPresent(Int.self, forKey: key) }
            self.windows = windows
        }
    }

    public let slug: String
    public let name: String
    public let apps: [App]
    public let apiKeys: [APIKey]
    public let webhooks: [Webhook]
    public let reconciliation: Reconciliation?
    /// The tenant's products and entitlements, as `catalog.set` takes them; absent: left as it is.
    public let catalog: Catalog?
    /// The tenant's data-retention windows; absent: left as they are (`dataRetention.set` may have set them).
    public let dataRetention: DataRetentionWindows?

    enum CodingKeys: String, CodingKey, CaseIterable { case slug, name, apps, apiKeys, webhooks, reconciliation, catalog, dataRetention }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        slug = try c.decode(String.self, forKey: .slug)
        name = try c.decode(String.self, forKey: .name)
        apps = try c.decodeIfPresent([App].self, forKey: .apps) ?? []
        apiKeys = try c.decodeIfPresent([APIKey].self, forKey: .apiKeys) ?? []
        webhooks = try c.decodeIfPresent([Webhook].self, forKey: .webhooks) ?? []
        reconciliation = try c.decodeIfPresent(Reconciliation.self, forKey: .reconciliation)
        // The catalog's members are the RPC's: one misspelt is refused, as `catalog.set` refuses it.
        if let raw = try c.decodeIfPresent(JSONValue.self, forKey: .catalog), let unknown = Catalog.unknownMember(raw) {
            throw StoregateError.invalid(field: "catalog" + unknown, reason: "is not a known field")
        }
        catalog = try c.decodeIfPresent(Catalog.self, forKey: .catalog)
        dataRetention = try c.decodeIfPresent(DataRetentionWindows.self, forKey: .dataRetention)
    }

    /// Parses YAML; errors name the offending field.
    public static func parse(yaml: String) throws(StoregateError) -> TenantManifest {
        do {
            return try YAMLDecoder().decode(TenantManifest.self, from: yaml)
        } catch let error as DecodingError {
            throw Self.describe(error)
        } catch let error as StoregateError {
            throw error
        } catch {
            throw .invalid(field: "manifest", reason: "is not valid YAML: \(error)")
        }
    }

    static func describe(_ error: DecodingError) -> StoregateError {
        func path(_ keys: [any CodingKey]) -> String {
            keys.reduce(into: "") { out, key in
                if let i = key.intValue { out += "[\(i)]" } else { out += out.isEmpty ? key.stringValue : ".\(key.stringValue)" }
            }
        }
        switch error {
        case .keyNotFound(let key, let c): return .invalid(field: path(c.codingPath + [key]), reason: "is required")
        case .typeMismatch(_, let c): return .invalid(field: path(c.codingPath), reason: "has the wrong type")
        case .valueNotFound(_, let c): return .invalid(field: path(c.codingPath), reason: "must not be empty")
        case .dataCorrupted(let c):
            if let underlying = c.underlyingError as? StoregateError { return underlying }
            return .invalid(field: path(c.codingPath), reason: "is not valid")
        @unknown default: return .invalid(field: "manifest", reason: "is not valid")
        }
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension Decoder {
    /// A keyed container that refuses members it does not know, so a misspelt field is an error.
    func strictContainer<K: CodingKey & CaseIterable>(keyedBy type: K.Type) throws -> KeyedDecodingContainer<K> {
        let all = try container(keyedBy: AnyKey.self)
        let known = Set(K.allCases.map(\.stringValue))
        if let unknown = all.allKeys.first(where: { !known.contains($0.stringValue) }) {
            let path = (codingPath + [unknown]).map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            throw StoregateError.invalid(field: path.replacingOccurrences(of: ".[", with: "["), reason: "is not a known field")
        }
        return try container(keyedBy: K.self)
    }
}
