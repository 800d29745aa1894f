import Foundation
import JSONRPC
import StoregateServer
import Testing

@Suite struct OpenRPCTests {
    static let committed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../api-spec/openrpc.json")

    /// The committed document is what the registry generates: regenerate with `storegate openrpc > api-spec/openrpc.json`.
    @Test func committedDocumentMatchesTheRegistry() throws {
        let text = try String(contentsOf: Self.committed, encoding: .utf8)
        #expect(text == StoregateRPC.documentText, "api-spec/openrpc.json has drifted: run `swift run storegate openrpc > api-spec/openrpc.json`")
    }

    @Test func everyMethodIsDescribed() throws {
        let document = try JSONParser.parse(Array(StoregateRPC.documentText.utf8))
        guard case .array(let methods) = document["methods"] else {
            Issue.record("no methods")
            return
        }
        let names = methods.compactMap { method -> String? in if case .string(let n) = method["name"] { n } else { nil } }
        #expect(names == StoregateRPC.registry.descriptions.map(\.name))
        #expect(Set(names).isSuperset(of: ["rpc.discover", "tenant.get", "apps.list", "apps.get"]))
        for method in methods {
            #expect(method["result"]?["schema"] != nil)
            #expect(method["paramStructure"] == "by-name")
        }
    }
}
