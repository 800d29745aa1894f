import Foundation
import JSONRPC
import Storegate
import Testing

/// `tenants/manifest.schema.json` holds an app's `retentionRules` as `retention.rules.set` documents them, and
/// the tenant's `catalog` as `catalog.get` does: the same schemas, made from the same declarations.
@Suite struct ManifestSchemaTests {
    static let committed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../tenants/manifest.schema.json")

    @Test func retentionRulesAreTheRPCsRules() throws {
        func member(_ object: Any?, _ path: String...) -> Any? {
            path.reduce(object) { ($0 as? [String: Any])?[$1] }
        }
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.committed))
        let committed = try #require(member(manifest, "properties", "apps", "items", "properties", "retentionRules", "items") as? [String: Any])
        let declared = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(RetentionRule.jsonSchema(rule: nil, description: nil))) as? [String: Any])
        #expect(
            NSDictionary(dictionary: committed) == NSDictionary(dictionary: declared),
            "run deploy/local/sync-manifest-schema.py")
    }

    @Test func theCatalogIsTheRPCsCatalog() throws {
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.committed))
        var committed = try #require(((manifest as? [String: Any])?["properties"] as? [String: Any])?["catalog"] as? [String: Any])
        committed["description"] = nil
        let declared = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(Catalog.jsonSchema(rule: nil, description: nil))) as? [String: Any])
        #expect(NSDictionary(dictionary: committed) == NSDictionary(dictionary: declared), "run deploy/local/sync-manifest-schema.py")
    }

    @Test func dataRetentionIsTheRPCsWindows() throws {
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.committed))
        let committed = try #require(((manifest as? [String: Any])?["properties"] as? [String: Any])?["dataRetention"] as? [String: Any])
        let properties = try #require(committed["properties"] as? [String: [String: Any]])
        #expect(Set(properties.keys) == Set(DataRetention.Kind.allCases.map(\.rawValue)), "run deploy/local/sync-manifest-schema.py")
        #expect(committed["additionalProperties"] as? Bool == false)
        for (name, schema) in properties {
            #expect(schema["minimum"] as? Int == DataRetention.minutes.lowerBound && schema["maximum"] as? Int == DataRetention.minutes.upperBound, "\(name)")
        }
    }
}
