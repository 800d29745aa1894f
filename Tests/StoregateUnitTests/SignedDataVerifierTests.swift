import AppStoreServer
import Crypto
import Foundation
import SwiftASN1
import TestVectors
import Testing
import X509

@Suite struct SignedDataVerifierTests {
    static func testRoot() throws -> Certificate { try Certificate(derEncoded: Array(AppleVectors.data("certs/testCA.der"))) }

    static func verifier(
        bundleId: String = "com.example", appAppleId: Int64? = 1234, environment: String = "Sandbox", roots: [Certificate]? = nil
    ) throws
        -> SignedDataVerifier
    {
        SignedDataVerifier(
            configuration: .init(bundleId: bundleId, appAppleId: appAppleId, environment: environment), chains: ChainVerifier(roots: try roots ?? [testRoot()]))
    }

    static func vector(_ name: String) throws -> String { try AppleVectors.text("mock_signed_data/\(name)") }

    /// Every mock_signed_data vector verifies or fails exactly as reference §6.1 tables it.
    @Test func appleVectorsVerifyAsTabled() async throws {
        let notification = try Self.vector("testNotification")
        let ok = try await Self.verifier().verify(notification)
        #expect(ok.payload?.kind == .notification)
        #expect(ok.payload?.bundleId == "com.example")
        #expect(try await Self.verifier(environment: "Production").verify(notification).failure == .wrongEnvironment(expected: "Production", actual: "Sandbox"))
        #expect(
            try await Self.verifier(appAppleId: 1235, environment: "Production").verify(notification).failure == .wrongAppAppleId(expected: 1235, actual: 1234))
        #expect(
            try await Self.verifier(bundleId: "com.examplex").verify(Self.vector("wrongBundleId")).failure
                == .wrongBundleId(expected: "com.examplex", actual: "com.example.wrong"))
        #expect(try await Self.verifier().verify(Self.vector("missingX5CHeaderClaim")).failure == .malformed("the header has no x5c certificate chain"))

        let renewal = try await Self.verifier().verify(Self.vector("renewalInfo"))
        #expect(renewal.payload?.kind == .renewalInfo)
        #expect(renewal.payload?.signedDate == Date(timeIntervalSince1970: 1_672_956_154))
        let transaction = try await Self.verifier().verify(Self.vector("transactionInfo"))
        #expect(transaction.payload?.kind == .transaction)
        #expect(
            try await Self.verifier(bundleId: "com.example.x").verify(Self.vector("transactionInfo")).failure
                == .wrongBundleId(expected: "com.example.x", actual: "com.example"))

        for garbage in ["a.b.c.d", "a.b.c", "", "not a jws"] {
            #expect(try await Self.verifier().verify(garbage).failure?.code == "malformed", "\(garbage)")
        }
    }

    /// A payload with one flipped byte fails as a bad signature, not as malformed input.
    @Test func flippedByteIsABadSignature() async throws {
        let jws = try Self.vector("testNotification")
        let parts = jws.split(separator: ".").map(String.init)
        var payload = try #require(Base64URL.decode(parts[1]))
        payload[payload.count / 2] ^= 0x01
        let flippedPayload = [parts[0], Base64URL.encode(payload), parts[2]].joined(separator: ".")
        #expect(try await Self.verifier().verify(flippedPayload).failure == .badSignature)

        var signature = try #require(Base64URL.decode(parts[2]))
        signature[10] ^= 0x80
        #expect(try await Self.verifier().verify([parts[0], parts[1], Base64URL.encode(signature)].joined(separator: ".")).failure == .badSignature)
    }

    /// A header seen before is not parsed again, and proves nothing by itself: every call checks its own
    /// signature (and the chain, see `untrustedRootIsABrokenChain`).
    @Test func aRememberedHeaderStillNeedsItsSignature() async throws {
        let verifier = try Self.verifier()
        let jws = try Self.vector("testNotification")
        #expect(await verifier.verify(jws).payload?.kind == .notification)
        #expect(await verifier.verify("  " + jws + "\n").payload?.kind == .notification, "the header remembered, surrounding whitespace ignored")
        let parts = jws.split(separator: ".").map(String.init)
        var payload = try #require(Base64URL.decode(parts[1]))
        payload[payload.count / 2] ^= 0x01
        #expect(await verifier.verify([parts[0], Base64URL.encode(payload), parts[2]].joined(separator: ".")).failure == .badSignature)
        #expect(await verifier.verify([parts[0], parts[1], ""].joined(separator: ".")).failure == .badSignature)
        #expect(
            await verifier.verify([parts[0], parts[1]].joined(separator: ".")).failure
                == .malformed("a compact JWS has three dot-separated parts, this has 2"))
    }

    /// With Apple Root CA - G3 alone, test-CA data is refused as a broken chain.
    @Test func untrustedRootIsABrokenChain() async throws {
        let failure = try await Self.verifier(roots: [ChainVerifier.appleRootCAG3()]).verify(Self.vector("testNotification")).failure
        #expect(failure?.code == "brokenChain")
    }

    @Test func builtInRootIsAppleRootCAG3() throws {
        var serializer = DER.Serializer()
        try serializer.serialize(ChainVerifier.appleRootCAG3())
        let fingerprint = SHA256.hash(data: serializer.serializedBytes).map { String(format: "%02X", $0) }.joined()
        #expect(fingerprint == "63343ABFB89A6A03EBB57E9B3F5FA7BE7C4F5C756F3017B3A8C488C3653E9179")
    }

    /// The invalid-OID chains of x509_test_certs.json are refused; the valid one passes.
    @Test func chainsWithoutApplesOIDsAreRefused() async throws {
        let json = try JSONSerialization.jsonObject(with: AppleVectors.data("x509_test_certs.json")) as? [String: Any] ?? [:]
        func der(_ name: String) throws -> Data {
            try #require(Data(base64Encoded: ((json[name] as? [String: Any])?["der_base64"] as? String) ?? ""))
        }
        let effective = Date(timeIntervalSince1970: 1_761_962_975)
        let root = try Certificate(derEncoded: Array(der("ROOT_CA_BASE64_ENCODED")))
        // These leaves' private keys are not published, so no payload can be signed with them: the chain
        // and its OIDs are checked directly.
        let chains = ChainVerifier(roots: [root])
        func check(_ leaf: String, _ intermediate: String, at date: Date = effective) async throws -> VerificationFailure? {
            let leafDER = try der(leaf)
            let intermediateDER = try der(intermediate)
            return await chains.verifyChain(leafDER: leafDER, intermediateDER: intermediateDER, at: date)
        }
        #expect(try await check("LEAF_CERT_BASE64_ENCODED", "INTERMEDIATE_CA_BASE64_ENCODED") == nil)
        #expect(
            try await check("LEAF_CERT_INVALID_OID_BASE64_ENCODED", "INTERMEDIATE_CA_BASE64_ENCODED")
                == .missingOID(certificate: "leaf", oid: "1.2.840.113635.100.6.11.1"))
        #expect(
            try await check("LEAF_CERT_FOR_INTERMEDIATE_CA_INVALID_OID_BASE64_ENCODED", "INTERMEDIATE_CA_INVALID_OID_BASE64_ENCODED")
                == .missingOID(certificate: "intermediate", oid: "1.2.840.113635.100.6.2.1"))
        #expect(
            try await check("LEAF_CERT_BASE64_ENCODED", "INTERMEDIATE_CA_BASE64_ENCODED", at: Date(timeIntervalSince1970: 2_280_946_846))?.code == "brokenChain"
        )

        let apple = ChainVerifier(roots: [try Certificate(derEncoded: Array(der("REAL_APPLE_ROOT_BASE64_ENCODED")))])
        #expect(
            await apple.verifyChain(
                leafDER: try der("REAL_APPLE_SIGNING_CERTIFICATE_BASE64_ENCODED"), intermediateDER: try der("REAL_APPLE_INTERMEDIATE_BASE64_ENCODED"),
                at: effective)
                == nil)
    }

    /// Xcode-signed data is refused unless the development option allows it.
    @Test func xcodeDataNeedsTheDevelopmentOption() async throws {
        let transaction = try AppleVectors.text("xcode/xcode-signed-transaction")
        #expect(
            try await Self.verifier(bundleId: "com.example.naturelab.backyardbirds.example", environment: "Sandbox").verify(transaction).failure
                == .unsignedEnvironment("Xcode"))
        #expect(
            try await Self.verifier(bundleId: "com.example.naturelab.backyardbirds.example", environment: "Xcode").verify(transaction).failure
                == .unsignedEnvironment("Xcode"))
        let development = SignedDataVerifier(
            configuration: .init(
                bundleId: "com.example.naturelab.backyardbirds.example", appAppleId: nil, environment: "Xcode", allowUnsignedEnvironments: true),
            chains: ChainVerifier(roots: [try ChainVerifier.appleRootCAG3()]))
        #expect(await development.verify(transaction).payload?.kind == .transaction)
        let appTransaction = await development.verify(try AppleVectors.text("xcode/xcode-signed-app-transaction"))
        #expect(appTransaction.payload?.kind == .appTransaction)
        #expect(await development.verify(try AppleVectors.text("xcode/xcode-signed-renewal-info")).payload?.kind == .renewalInfo)
    }
}

/// Online checks: an unreachable OCSP responder is retryable; a nonsense answer is a hard failure.
@Suite struct OCSPTests {
    struct Unreachable: OCSPTransport {
        func post(_ request: [UInt8], to uri: String) async throws -> [UInt8] { throw URLError(.cannotConnectToHost) }
    }

    struct Nonsense: OCSPTransport {
        func post(_ request: [UInt8], to uri: String) async throws -> [UInt8] { [0x30, 0x03, 0x0A, 0x01, 0x01] }
    }

    static func appleChain() throws -> (root: Certificate, leaf: Data, intermediate: Data) {
        let json = try JSONSerialization.jsonObject(with: AppleVectors.data("x509_test_certs.json")) as? [String: Any] ?? [:]
        func der(_ name: String) throws -> Data { try #require(Data(base64Encoded: ((json[name] as? [String: Any])?["der_base64"] as? String) ?? "")) }
        return (
            try Certificate(derEncoded: Array(der("REAL_APPLE_ROOT_BASE64_ENCODED"))), try der("REAL_APPLE_SIGNING_CERTIFICATE_BASE64_ENCODED"),
            try der("REAL_APPLE_INTERMEDIATE_BASE64_ENCODED")
        )
    }

    @Test func unreachableResponderIsRetryable() async throws {
        let (root, leaf, intermediate) = try Self.appleChain()
        let effective = Date(timeIntervalSince1970: 1_761_962_975)
        let failure = await ChainVerifier(roots: [root], ocsp: Unreachable()).verifyChain(
            leafDER: leaf, intermediateDER: intermediate, at: effective, now: effective)
        #expect(failure?.isRetryable == true, "\(String(describing: failure))")
        let nonsense = await ChainVerifier(roots: [root], ocsp: Nonsense()).verifyChain(
            leafDER: leaf, intermediateDER: intermediate, at: effective, now: effective)
        #expect(nonsense != nil && nonsense?.isRetryable == false, "\(String(describing: nonsense))")
        #expect(await ChainVerifier(roots: [root]).verifyChain(leafDER: leaf, intermediateDER: intermediate, at: effective, now: effective) == nil)
    }
}
