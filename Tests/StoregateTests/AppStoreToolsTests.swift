import AppStoreServer
import Crypto
import Foundation
import TestVectors
import Testing

/// `storegate jws verify` and `storegate offer sign`, run as a person debugging an integration would.
@Suite struct AppStoreToolsTests {
    static let vectors = AppleVectors.root.path
    static let env = ["PATH": "/usr/bin:/bin"]

    @Test func jwsVerifyPrintsKindVerdictAndPayload() async throws {
        let valid = try await CLITests.storegate(
            [
                "jws", "verify", "--root", "\(Self.vectors)/certs/testCA.der", "--bundle-id", "com.example", "--environment", "Sandbox",
                "\(Self.vectors)/mock_signed_data/testNotification",
            ], environment: Self.env)
        #expect(valid.status == 0)
        #expect(valid.stdout.hasPrefix("kind: notification\nverdict: valid\n"))
        #expect(valid.stdout.contains(#""notificationUUID" : "9ad56bd2-0bc6-42e0-af24-fd996d87a1e6""#))

        let wrongBundle = try await CLITests.storegate(
            ["jws", "verify", "--root", "\(Self.vectors)/certs/testCA.der", "--bundle-id", "com.other", "\(Self.vectors)/mock_signed_data/transactionInfo"],
            environment: Self.env)
        #expect(wrongBundle.status == 1)
        #expect(wrongBundle.stdout.contains("verdict: invalid (wrongBundleId)"))

        let appleRootOnly = try await CLITests.storegate(["jws", "verify", "\(Self.vectors)/mock_signed_data/renewalInfo"], environment: Self.env)
        #expect(appleRootOnly.status == 1)
        #expect(appleRootOnly.stdout.contains("(brokenChain)"))

        #expect(try await CLITests.storegate(["jws", "verify", "--environment", "Staging", "x"], environment: Self.env).status == 2)
        let unreadable = try await CLITests.storegate(["jws", "verify", "/nonexistent"], environment: Self.env)
        #expect(unreadable.status == 2)
        #expect(unreadable.stderr.contains("cannot read /nonexistent") && unreadable.stderr.contains("Usage: storegate jws verify"), "\(unreadable.stderr)")
    }

    @Test func offerSignPrintsSignaturesThatVerify() async throws {
        let key = try SigningKey(keyId: "ABCDEF1234", issuerId: Fixtures.issuerId, bundleId: "com.example", p8: AppleVectors.text("certs/testSigningKey.p8"))
        let common = [
            "offer", "sign", "--p8", "\(Self.vectors)/certs/testSigningKey.p8", "--key-id", "ABCDEF1234", "--issuer-id", Fixtures.issuerId, "--bundle-id",
            "com.example",
        ]

        let legacy = try await CLITests.storegate(
            common + ["--product-id", "com.example.monthly", "--offer-id", "WINBACK", "--format", "legacy"], environment: Self.env)
        #expect(legacy.status == 0)
        let fields = try JSONSerialization.jsonObject(with: Data(legacy.stdout.utf8)) as? [String: Any] ?? [:]
        let nonce = try #require(fields["nonce"] as? String)
        let timestamp = try #require(fields["timestamp"] as? NSNumber)
        let payload = OfferSigner.legacyPayload(
            bundleId: "com.example", keyId: "ABCDEF1234", productId: "com.example.monthly", offerId: "WINBACK", appAccountToken: "",
            nonce: try #require(UUID(uuidString: nonce)), timestamp: timestamp.int64Value)
        let der = try #require(Data(base64Encoded: fields["signature"] as? String ?? ""))
        #expect(key.publicKey.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: der), for: Data(payload.utf8)))

        let jws = try await CLITests.storegate(
            common + ["--product-id", "p", "--offer-id", "o", "--transaction-id", "2000000847061981", "--format", "jws"], environment: Self.env)
        let compact = try #require((try JSONSerialization.jsonObject(with: Data(jws.stdout.utf8)) as? [String: Any])?["compactJWS"] as? String)
        let opened = try OfferSigningTests.open(compact, publicKey: key.publicKey)
        #expect(opened.claims["aud"] as? String == "promotional-offer")

        let request = FileManager.default.temporaryDirectory.appendingPathComponent("request-\(UUID()).json")
        try Data(#"{"operation":"CREATE_ONE_TIME_CHARGE","version":"1"}"#.utf8).write(to: request)
        defer { try? FileManager.default.removeItem(at: request) }
        let commerce = try await CLITests.storegate(common + ["--format", "advanced-commerce", "--request", request.path], environment: Self.env)
        #expect(commerce.status == 0)
        #expect(try await CLITests.storegate(common + ["--format", "introductory", "--product-id", "p"], environment: Self.env).status == 2)
        #expect(try await CLITests.storegate(common + ["--format", "bogus"], environment: Self.env).status == 2)
    }
}
