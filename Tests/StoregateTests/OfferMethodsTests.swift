import AppStoreServer
import Crypto
import Foundation
import JSONRPC
import NIOHTTP1
import PostgresNIO
import Storegate
import StoregatePostgres
import Testing

@testable import StoregateServer

/// `offers.*` over HTTP: every signature verifies with the app's public key, keys are opened once,
/// every signing is audited without the signature, and no tenant signs with another's app.
@Suite struct OfferMethodsTests {
    @Test func offersVerifyWithTheAppsPublicKey() async throws {
        try await TestDatabase.with { capabilities, _ in
            let a = try await Fixtures.tenant(capabilities, slug: "offers-a", bundleId: "com.example.offers")
            let privateKey = P256.Signing.PrivateKey()
            _ = try await capabilities.apps.importKey(
                tenant: a.tenant.tenant, bundleId: "com.example.offers", keyId: "OFFERKEY01", issuerId: Fixtures.issuerId, p8: privateKey.pemRepresentation,
                actor: Actor("test"))
            let publicKey = privateKey.publicKey
            try await TestServer.with(capabilities) { server in
                let token = UUID().uuidString
                let legacy = try await server.call(
                    "offers.signPromotional",
                    ["bundleId": "com.example.offers", "productId": "com.example.monthly", "offerId": "WINBACK", "appAccountToken": token],
                    apiKey: a.apiKey)
                let fields = try #require(legacy["result"] as? [String: Any], "\(legacy)")
                #expect(fields["keyIdentifier"] as? String == "OFFERKEY01")
                let payload = OfferSigner.legacyPayload(
                    bundleId: "com.example.offers", keyId: "OFFERKEY01", productId: "com.example.monthly", offerId: "WINBACK", appAccountToken: token,
                    nonce: try #require(UUID(uuidString: fields["nonce"] as? String ?? "")), timestamp: (fields["timestamp"] as? NSNumber)?.int64Value ?? 0)
                let der = try #require(Data(base64Encoded: fields["signature"] as? String ?? ""))
                #expect(publicKey.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: der), for: Data(payload.utf8)))

                func jws(_ method: String, _ params: [String: Any]) async throws -> (header: [String: Any], claims: [String: Any]) {
                    let reply = try await server.call(method, params, apiKey: a.apiKey)
                    struct NoCompactJWS: Error, CustomStringConvertible { let description: String }
                    guard let compact = (reply["result"] as? [String: Any])?["compactJWS"] as? String else { throw NoCompactJWS(description: "\(reply)") }
                    return try OfferSigningTests.open(compact, publicKey: publicKey)
                }
                let promotional = try await jws(
                    "offers.signPromotionalJWS",
                    ["bundleId": "com.example.offers", "productId": "com.example.monthly", "offerId": "WINBACK", "transactionId": "2000000847061981"])
                #expect(promotional.claims["aud"] as? String == "promotional-offer")
                #expect(promotional.claims["bid"] as? String == "com.example.offers")
                #expect(promotional.header["kid"] as? String == "OFFERKEY01")
                let intro = try await jws(
                    "offers.signIntroductoryEligibility",
                    ["bundleId": "com.example.offers", "productId": "com.example.monthly", "allowIntroductoryOffer": true, "transactionId": "2000000847061981"])
                #expect(intro.claims["allowIntroductoryOffer"] as? Bool == true)
                let commerce = try await jws(
                    "offers.signAdvancedCommerceRequest",
                    [
                        "bundleId": "com.example.offers",
                        "request": ["operation": "CREATE_ONE_TIME_CHARGE", "version": "1", "requestInfo": ["requestReferenceId": UUID().uuidString]],
                    ])
                let request = try #require(Data(base64Encoded: commerce.claims["request"] as? String ?? ""))
                #expect((try JSONSerialization.jsonObject(with: request) as? [String: Any])?["operation"] as? String == "CREATE_ONE_TIME_CHARGE")

                let missing = try await server.call("offers.signPromotionalJWS", ["bundleId": "com.example.offers", "productId": "p"], apiKey: a.apiKey)
                #expect((missing["error"] as? [String: Any])?["code"] as? Int == -32602)
                #expect(((missing["error"] as? [String: Any])?["data"] as? [String: Any])?["field"] as? String == "offerId")
                let badToken = try await server.call(
                    "offers.signPromotional", ["bundleId": "com.example.offers", "productId": "p", "offerId": "o", "appAccountToken": "not-a-uuid"],
                    apiKey: a.apiKey)
                #expect(((badToken["error"] as? [String: Any])?["data"] as? [String: Any])?["field"] as? String == "appAccountToken")
                let noKey = try await server.call(
                    "offers.signPromotionalJWS", ["bundleId": "com.example.offers", "productId": "p", "offerId": "o", "keyId": "NOSUCHKEY1"], apiKey: a.apiKey)
                #expect(((noKey["error"] as? [String: Any])?["data"] as? [String: Any])?["field"] as? String == "keyId")
            }
            #expect(capabilities.signingKeys.decryptionCount == 1, "the key was opened once for every signature")
            let audit = try await capabilities.persistence.inTenant(a.tenant.tenant, .read) { try await $0.auditLog() }
            let signings = audit.filter { $0.action == "offer.sign" }
            #expect(signings.count == 4)
            #expect(signings.allSatisfy { $0.actor == "apikey:\(a.tenant.apiKeyPrefix)" && !$0.detail.contains("signature") })
        }
    }

    /// A batch of signings: each is audited, identical ones sharing a row that counts them.
    @Test func batchedSigningsAreEachCounted() async throws {
        try await TestDatabase.with { capabilities, _ in
            let a = try await Fixtures.tenant(capabilities, slug: "offers-batch", bundleId: "com.example.batch")
            _ = try await capabilities.apps.importKey(
                tenant: a.tenant.tenant, bundleId: "com.example.batch", keyId: "BATCHKEY01", issuerId: Fixtures.issuerId, p8: Fixtures.p8(),
                actor: Actor("test"))
            let calls = (1...60).map { i in
                #"{"jsonrpc":"2.0","method":"offers.signPromotionalJWS","params":{"bundleId":"com.example.batch","productId":"com.example.\#(i % 3)","offerId":"WINBACK"},"id":\#(i)}"#
            }
            let reply = try await TestServer.with(capabilities) { server in
                try await server.rpc(raw: "[" + calls.joined(separator: ",") + "]", apiKey: a.apiKey)
            }
            let answers = try #require(reply.json as? [[String: Any]])
            #expect(answers.count == 60 && answers.allSatisfy { $0["result"] != nil })
            let audit = try await capabilities.persistence.inTenant(a.tenant.tenant, .read) { try await $0.auditLog() }
            var counted: [String: Int] = [:]
            for entry in audit where entry.action == "offer.sign" {
                let detail = try #require(try JSONSerialization.jsonObject(with: Data(entry.detail.utf8)) as? [String: Any])
                #expect(detail["offerId"] as? String == "WINBACK" && detail["kind"] as? String == "promotionalJWS")
                counted[detail["productId"] as? String ?? "?", default: 0] += (detail["count"] as? Int) ?? 0
            }
            #expect(counted == ["com.example.0": 20, "com.example.1": 20, "com.example.2": 20])
        }
    }

    /// A batch's audit entries are written together before it is answered: when they cannot be written,
    /// no signature leaves, for a single call or a batch, and nothing is half-audited.
    @Test func signaturesWhoseAuditCannotBeWrittenAreNotSent() async throws {
        try await TestDatabase.with { capabilities, _ in
            let a = try await Fixtures.tenant(capabilities, slug: "offers-unaudited", bundleId: "com.example.unaudited")
            _ = try await capabilities.apps.importKey(
                tenant: a.tenant.tenant, bundleId: "com.example.unaudited", keyId: "AUDITKEY01", issuerId: Fixtures.issuerId, p8: Fixtures.p8(),
                actor: Actor("test"))
            let logger = TestLog.logger("test")
            let refuse: [PostgresQuery] = [
                """
                CREATE FUNCTION refuse_signing_entries() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN IF NEW.action = 'offer.sign' THEN RAISE EXCEPTION 'no signing entries'; END IF; RETURN NEW; END $$
                """,
                "CREATE TRIGGER refuse_signing BEFORE INSERT ON storegate.audit_log FOR EACH ROW EXECUTE FUNCTION refuse_signing_entries()",
            ]
            try await capabilities.postgres.client.withConnection { conn in for statement in refuse { try await conn.run(statement, logger: logger) } }
            @Sendable func call(_ i: Int) -> String {
                #"{"jsonrpc":"2.0","method":"offers.signPromotionalJWS","params":{"bundleId":"com.example.unaudited","productId":"com.example.\#(i)","offerId":"WINBACK"},"id":\#(i)}"#
            }
            try await TestServer.with(capabilities) { server in
                let batch = "[" + (1...20).map(call).joined(separator: ",") + "]"
                for reply in [try await server.rpc(raw: call(1), apiKey: a.apiKey), try await server.rpc(raw: batch, apiKey: a.apiKey)] {
                    #expect(reply.status == 500)
                    let text = String(decoding: reply.body, as: UTF8.self)
                    #expect(!text.contains("compactJWS") && !text.contains("eyJ"), "\(text)")
                    #expect(((reply.json as? [String: Any])?["error"] as? [String: Any])?["code"] as? Int == -32603, "\(text)")
                }
                let audit = try await capabilities.persistence.inTenant(a.tenant.tenant, .read) { try await $0.auditLog() }
                #expect(!audit.contains { $0.action == "offer.sign" })
                // Once entries can be written again, the same batch is answered, and audited.
                try await capabilities.postgres.client.withConnection { conn in
                    try await conn.run("DROP TRIGGER refuse_signing ON storegate.audit_log", logger: logger)
                }
                let again = try await server.rpc(raw: batch, apiKey: a.apiKey)
                #expect(again.status == 200 && (again.json as? [[String: Any]])?.allSatisfy { $0["result"] != nil } == true)
                // The metrics count each call with what its caller was told: the 21 refused ones failed.
                let metrics = try await server.request("/metrics", method: .GET).text
                #expect(metrics.contains(#"storegate_rpc_requests_total{method="offers.signPromotionalJWS",outcome="-32603"} 21"#), "\(metrics)")
                #expect(metrics.contains(#"storegate_rpc_requests_total{method="offers.signPromotionalJWS",outcome="ok"} 20"#), "\(metrics)")
            }
            let after = try await capabilities.persistence.inTenant(a.tenant.tenant, .read) { try await $0.auditLog() }
            #expect(after.filter { $0.action == "offer.sign" }.count == 20)
        }
    }

    /// The offer results skip JSONEncoder; what they write must be exactly what it would write.
    @Test func resultsAreWhatJSONEncoderWrites() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        let jws = OfferMethods.CompactJWS(compactJWS: "eyJhbGciOiJFUzI1NiJ9.e30.sig-_")
        #expect(written(jws) == Array(try encoder.encode(jws)))
        let legacy = OfferMethods.PromotionalOfferView(
            PromotionalOfferSignature(
                keyIdentifier: "ABCDEF1234", nonce: "20fba8a0-2b80-4a7d-a17f-85c1854727f8", timestamp: 1_698_148_900_000,
                signature: "MEUCIQD/+abc=="))
        #expect(written(legacy) == Array(try encoder.encode(legacy)))
    }

    func written(_ result: some JSONValueConvertible) -> [UInt8] {
        var out: [UInt8] = []
        result.writeJSON(to: &out)
        return out
    }

    /// Tenant A cannot sign with tenant B's app: it looks exactly like an app that does not exist.
    @Test func tenantsCannotSignWithEachOthersApps() async throws {
        try await TestDatabase.with { capabilities, _ in
            let a = try await Fixtures.tenant(capabilities, slug: "signer-a", bundleId: "com.example.signer-a")
            let b = try await Fixtures.tenant(capabilities, slug: "signer-b", bundleId: "com.example.signer-b")
            _ = try await capabilities.apps.importKey(
                tenant: b.tenant.tenant, bundleId: "com.example.signer-b", keyId: "SIGNERB001", issuerId: Fixtures.issuerId, p8: Fixtures.p8(),
                actor: Actor("test"))
            try await TestServer.with(capabilities) { server in
                let params: [String: Any] = ["productId": "p", "offerId": "o"]
                let foreign = try await server.rpc(
                    raw: String(
                        decoding: try JSONSerialization.data(withJSONObject: [
                            "jsonrpc": "2.0", "method": "offers.signPromotionalJWS", "id": 1,
                            "params": params.merging(["bundleId": "com.example.signer-b"]) { a, _ in a },
                        ]), as: UTF8.self), apiKey: a.apiKey)
                let missing = try await server.rpc(
                    raw: String(
                        decoding: try JSONSerialization.data(withJSONObject: [
                            "jsonrpc": "2.0", "method": "offers.signPromotionalJWS", "id": 1,
                            "params": params.merging(["bundleId": "com.example.nothing"]) { a, _ in a },
                        ]), as: UTF8.self), apiKey: a.apiKey)
                #expect(foreign.text == missing.text)
                #expect(foreign.text.contains(#""code":1004"#))
                let own = try await server.call(
                    "offers.signPromotionalJWS", params.merging(["bundleId": "com.example.signer-b"]) { a, _ in a }, apiKey: b.apiKey)
                #expect((own["result"] as? [String: Any])?["compactJWS"] != nil)
            }
        }
    }
}
