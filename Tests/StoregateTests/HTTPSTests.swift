import Crypto
import Foundation
import NIOHTTP1
import NIOSSL
import Storegate
import StoregateServer
import SwiftASN1
import Testing
import X509

@Suite struct HTTPSTests {
    /// The server speaks HTTPS itself from PEM files; the certificate is made here.
    @Test func servesHTTPSOnLoopback() async throws {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("localhost") }
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey), notValidBefore: now - 60, notValidAfter: now + 3600,
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                SubjectAlternativeNames([.dnsName("localhost")])
                Critical(BasicConstraints.notCertificateAuthority)
            }, issuerPrivateKey: .init(key))
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        let certificatePEM = PEMDocument(type: "CERTIFICATE", derBytes: serializer.serializedBytes).pemString
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storegate-tls-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let certPath = directory.appendingPathComponent("cert.pem").path
        let keyPath = directory.appendingPathComponent("key.pem").path
        try certificatePEM.write(toFile: certPath, atomically: true, encoding: .utf8)
        try key.pemRepresentation.write(toFile: keyPath, atomically: true, encoding: .utf8)

        var trusting = TLSConfiguration.makeClientConfiguration()
        trusting.trustRoots = .certificates([try NIOSSLCertificate(bytes: serializer.serializedBytes, format: .der)])
        let tls = trusting
        try await TestDatabase.with { capabilities, _ in
            let (_, apiKey, _) = try await Fixtures.tenant(capabilities, slug: "secure", bundleId: "com.example.secure")
            try await TestServer.with(
                capabilities,
                configure: {
                    $0.tlsCertificatePath = certPath
                    $0.tlsKeyPath = keyPath
                }, tls: tls
            ) { server in
                #expect(server.baseURL.hasPrefix("https://"))
                let reply = try await server.call("tenant.get", apiKey: apiKey)
                #expect((reply["result"] as? [String: Any])?["slug"] as? String == "secure")
                #expect(try await server.request("/readyz", method: .GET).status == 200)
            }
        }
    }
}
