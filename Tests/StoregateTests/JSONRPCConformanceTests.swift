import Foundation
import JSONRPC
import NIOHTTP1
import Storegate
import StoregateServer
import Testing

/// Every method-agnostic case of ../shared/jsonrpc/spec-cases.json, sent byte for byte over HTTP.
@Suite struct JSONRPCConformanceTests {
    static let specCasesURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../shared/jsonrpc/spec-cases.json")

    struct Case: @unchecked Sendable {
        let name: String
        let raw: String
        let check: [String: Any]
        let status: Int
    }

    static func cases() throws -> [Case] {
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: specCasesURL)) as? [String: Any] ?? [:]
        return (root["cases"] as? [[String: Any]] ?? []).compactMap { c in
            guard c["method_agnostic"] as? Bool == true, let expect = c["expect"] as? [String: Any] else { return nil }
            return Case(
                name: c["name"] as? String ?? "", raw: c["request_raw"] as? String ?? "", check: expect["check"] as? [String: Any] ?? [:],
                status: expect["http_status"] as? Int ?? 200)
        }
    }

    @Test func everyMethodAgnosticCasePasses() async throws {
        let cases = try Self.cases()
        #expect(cases.count == 50)
        try await TestDatabase.with { capabilities, _ in
            let (_, apiKey, _) = try await Fixtures.tenant(capabilities, slug: "conformance", bundleId: "com.example.conformance")
            try await TestServer.with(capabilities) { server in
                for c in cases {
                    let reply = try await server.rpc(raw: c.raw, apiKey: apiKey)
                    try Self.verify(c, reply)
                }
            }
        }
    }

    static func verify(_ c: Case, _ reply: TestServer.Reply) throws {
        let kind = c.check["kind"] as? String
        if kind == "none" {
            #expect(reply.status == 204, "\(c.name)")
            #expect(reply.body.isEmpty, "\(c.name)")
            return
        }
        #expect(reply.status == 200, "\(c.name): HTTP \(reply.status)")
        let value = try JSONParser.parse(reply.body)
        if kind == "batch" {
            guard case .array(let responses) = value else {
                Issue.record("\(c.name): expected an array, got \(reply.text)")
                return
            }
            let items = c.check["items"] as? [[String: Any]] ?? []
            #expect(responses.count == items.count, "\(c.name)")
            var remaining = responses
            for item in items {
                if let index = remaining.firstIndex(where: { matches($0, item) }) {
                    remaining.remove(at: index)
                } else {
                    Issue.record("\(c.name): no response matches \(item) in \(reply.text)")
                }
            }
        } else {
            #expect(matches(value, c.check), "\(c.name): \(reply.text)")
            if let against = c.check["result_validates_against"] as? String {
                #expect(against == "openrpc-meta-schema.json")
                #expect(value["result"]?["openrpc"] == .string(OpenRPC.version), "\(c.name)")
            }
        }
    }

    /// Checks one response object against a case's expectations: code, id (with its JSON type), shape.
    static func matches(_ response: JSONValue, _ check: [String: Any]) -> Bool {
        guard response["jsonrpc"] == .string("2.0"), let id = response["id"] else { return false }
        let hasResult = response["result"] != nil
        let hasError = response["error"] != nil
        guard hasResult != hasError else { return false }
        if let code = check["error_code"] as? Int, response["error"]?["code"] != .number(code) { return false }
        if let codes = check["error_code_any_of"] as? [Int], !codes.contains(where: { response["error"]?["code"] == .number($0) }) { return false }
        if check["result_present"] as? Bool == true, !hasResult { return false }
        if check.keys.contains("id") && !idMatches(id, check["id"]) { return false }
        if let ids = check["id_any_of"] as? [Any], !ids.contains(where: { idMatches(id, $0) }) { return false }
        if let or = check["or_error_code"] as? Int, hasError, response["error"]?["code"] != .number(or) { return false }
        return true
    }

    static func idMatches(_ id: JSONValue, _ expected: Any?) -> Bool {
        switch expected {
        case nil, is NSNull: return id == .null
        case let s as String: return id == .string(s)
        case let n as NSNumber:
            guard case .number(let text) = id else { return false }
            return text == n.stringValue || Double(text) == n.doubleValue && text.contains(".") == n.stringValue.contains(".")
        default: return false
        }
    }

    @Test func batchAndBodyLimits() async throws {
        try await TestDatabase.with { capabilities, _ in
            let (_, apiKey, _) = try await Fixtures.tenant(capabilities, slug: "limits", bundleId: "com.example.limits")
            try await TestServer.with(capabilities, configure: { $0.maxBodyBytes = 64 * 1024 }) { server in
                let call = #"{"jsonrpc":"2.0","method":"tenant.get","id":1}"#
                let full = try await server.rpc(raw: "[" + Array(repeating: call, count: 100).joined(separator: ",") + "]", apiKey: apiKey)
                #expect(full.status == 200)
                #expect((full.json as? [Any])?.count == 100)

                let over = try await server.rpc(raw: "[" + Array(repeating: call, count: 101).joined(separator: ",") + "]", apiKey: apiKey)
                let overValue = try JSONParser.parse(over.body)
                #expect(overValue["error"]?["code"] == .number(-32600))
                #expect(overValue["error"]?["data"]?["maxBatchSize"] == .number(100))

                let big = try await server.rpc(
                    raw: #"{"jsonrpc":"2.0","method":"tenant.get","params":{"x":""# + String(repeating: "a", count: 70_000) + #""},"id":1}"#, apiKey: apiKey)
                #expect(big.status == 413)
                #expect(try JSONParser.parse(big.body)["error"]?["code"] == .number(1013))
                // Far past the limit, from a client that said `Connection: close` and reads only once it has sent
                // everything (as Python's urllib does): it gets the 413, not a reset.
                let huge = Array((#"{"jsonrpc":"2.0","method":"tenant.get","params":{"x":""# + String(repeating: "a", count: 17 << 20) + #""},"id":1}"#).utf8)
                let answer = try await RawHTTP.post(
                    port: server.port, path: "/rpc", body: huge,
                    headers: ["Authorization": "Bearer \(apiKey)", "Content-Type": "application/json", "Connection": "close"])
                #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer.prefix(200))")
                #expect(answer.contains(#""code":1013"#))

                let wrongType = try await server.request(
                    "/rpc", body: Array(call.utf8), headers: [("Content-Type", "text/plain"), ("Authorization", "Bearer \(apiKey)")])
                #expect(wrongType.status == 415)
                let get = try await server.request("/rpc", method: .GET, headers: [("Authorization", "Bearer \(apiKey)")])
                #expect(get.status == 405)
                #expect(get.headers["Allow"].first == "POST")

                let unauthenticated = try await server.rpc(raw: call, apiKey: nil)
                #expect(unauthenticated.status == 401)
                #expect(try JSONParser.parse(unauthenticated.body)["error"]?["code"] == .number(1001))
                let unknown = try await server.rpc(raw: call, apiKey: "sg_0000000000_" + String(repeating: "0", count: 40))
                #expect(unknown.status == 401)

                let invalidUTF8 = try await server.request(
                    "/rpc", body: Array(#"{"jsonrpc":"2.0","method":"tenant.get","id":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8),
                    headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(apiKey)")])
                #expect(try JSONParser.parse(invalidUTF8.body)["error"]?["code"] == .number(-32700))

                let metrics = try await server.request("/metrics", method: .GET)
                #expect(metrics.text.contains(#"storegate_rpc_requests_total{method="tenant.get",outcome="ok"} 100"#))
                #expect(!metrics.text.contains("conformance") && !metrics.text.contains("limits"), "no tenant labels")
            }
        }
    }
}
