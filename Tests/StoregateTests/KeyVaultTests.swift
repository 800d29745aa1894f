import Crypto
import Foundation
import KeyVault
import Storegate
import StoregatePostgres
import StoregateServer
import Testing

@Suite struct KeyVaultTests {
    let aad = KeyVault.associatedData(tenantId: UUID(), appId: UUID(), keyId: "ABCDEFGHIJ")

    @Test func sealAndOpenRoundTrip() throws {
        let vault = TestDatabase.makeVault()
        let secret = Data((0..<32).map { UInt8($0) })
        let sealed = try vault.seal(secret, associatedData: aad)
        #expect(sealed.ciphertext.count == 12 + 32 + 16)
        #expect(sealed.wrappedDataKey.count == 12 + 32 + 16)
        #expect(try vault.open(sealed, associatedData: aad) == secret)
        #expect(try vault.seal(secret, associatedData: aad).ciphertext != sealed.ciphertext, "a fresh data key and nonce each time")
    }

    @Test func failsClosed() throws {
        let vault = TestDatabase.makeVault()
        let sealed = try vault.seal(Data(repeating: 7, count: 32), associatedData: aad)

        let stranger = TestDatabase.makeVault()
        #expect(throws: KeyVaultError.unknownMasterKey(id: sealed.masterKeyId)) { try stranger.open(sealed, associatedData: aad) }

        var flipped = sealed.ciphertext
        flipped[20] ^= 0x01
        let tampered = SealedKey(format: sealed.format, masterKeyId: sealed.masterKeyId, wrappedDataKey: sealed.wrappedDataKey, ciphertext: flipped)
        #expect(throws: KeyVaultError.authenticationFailed) { try vault.open(tampered, associatedData: aad) }

        var wrappedFlip = sealed.wrappedDataKey
        wrappedFlip[14] ^= 0x80
        let tamperedKey = SealedKey(format: sealed.format, masterKeyId: sealed.masterKeyId, wrappedDataKey: wrappedFlip, ciphertext: sealed.ciphertext)
        #expect(throws: KeyVaultError.authenticationFailed) { try vault.open(tamperedKey, associatedData: aad) }

        let otherRow = KeyVault.associatedData(tenantId: UUID(), appId: UUID(), keyId: "ABCDEFGHIJ")
        #expect(throws: KeyVaultError.authenticationFailed) { try vault.open(sealed, associatedData: otherRow) }

        #expect(throws: KeyVaultError.self) { try KeyVault(unavailable: "no key").seal(Data(), associatedData: aad) }
        #expect(throws: KeyVaultError.self) { try MasterKey(base64: "c2hvcnQ=") }
    }

    /// After rotate-master, only the new master key is needed; the private key ciphertext is unchanged.
    @Test func rotateMasterReWrapsEveryKey() async throws {
        let old = MasterKey.generate()
        let new = MasterKey.generate()
        try await TestDatabase.with(vault: TestDatabase.makeVault([old])) { capabilities, url in
            let a = try await Fixtures.tenant(capabilities, slug: "rotator", bundleId: "com.example.rotator")
            let pem = Fixtures.p8()
            let key = try await capabilities.apps.importKey(
                tenant: a.tenant.tenant, bundleId: "com.example.rotator", keyId: "ROTATE0001", issuerId: Fixtures.issuerId, p8: pem, actor: Actor("test"))
            let before = try await capabilities.persistence.inTenant(a.tenant.tenant, .read) { try await $0.apps.sealedKey(id: key.id) }
            // A webhook endpoint's signing secret is sealed the same way, and re-wrapped with the keys.
            let endpoint = try await capabilities.webhooks.create(
                tenant: a.tenant.tenant, WebhookEndpointSpec(url: "https://93.184.215.14/hooks"), actor: Actor("test"))

            let rotating = try capabilities.with(vault: TestDatabase.makeVault([new, old]))
            #expect(try await rotating.rotateMasterKey(actor: Actor("test")) == 2)
            #expect(try await rotating.rotateMasterKey(actor: Actor("test")) == 0, "a second run has nothing to do")

            let after = try await capabilities.persistence.inTenant(a.tenant.tenant, .read) { try await $0.apps.sealedKey(id: key.id) }
            #expect(after?.ciphertext == before?.ciphertext)
            #expect(after?.masterKeyId != before?.masterKeyId)

            let newOnly = try capabilities.with(vault: TestDatabase.makeVault([new]))
            let opened = try await newOnly.signingKeys.privateKey(for: key, of: a.tenant.tenant)
            #expect(opened.publicKey.x963Representation == (try P256.Signing.PrivateKey(pemRepresentation: pem)).publicKey.x963Representation)

            let oldOnly = try capabilities.with(vault: TestDatabase.makeVault([old]))
            await #expect(throws: StoregateError.self) { try await oldOnly.signingKeys.privateKey(for: key, of: a.tenant.tenant) }

            let (endpointId, secrets) = try await capabilities.persistence.inTenant(a.tenant.tenant, .read) { unit in
                let stored = try #require(try await unit.webhookEndpoints.list().first { $0.displayId == endpoint.id })
                return (stored.id, try await unit.webhookEndpoints.secrets(endpointId: stored.id))
            }
            let aad = SealedWebhookSecret.associatedData(tenantId: a.tenant.tenant.id, endpointId: endpointId, secretId: try #require(secrets.first).id)
            #expect(try TestDatabase.makeVault([new]).open(try #require(secrets.first).sealed, associatedData: aad) == Data(try #require(endpoint.secret).utf8))
            #expect(throws: KeyVaultError.self) { try TestDatabase.makeVault([old]).open(try #require(secrets.first).sealed, associatedData: aad) }
        }
    }

    /// A key is opened once and then served from memory.
    @Test func signingKeysAreDecryptedOnce() async throws {
        try await TestDatabase.with { capabilities, _ in
            let a = try await Fixtures.tenant(capabilities, slug: "cacher", bundleId: "com.example.cacher")
            let key = try await capabilities.apps.importKey(
                tenant: a.tenant.tenant, bundleId: "com.example.cacher", keyId: "CACHE00001", issuerId: Fixtures.issuerId, p8: Fixtures.p8(),
                actor: Actor("test"))
            for _ in 0..<20 { _ = try await capabilities.signingKeys.privateKey(for: key, of: a.tenant.tenant) }
            #expect(capabilities.signingKeys.decryptionCount == 1)
        }
    }

    /// Private key bytes never reach logs, exports or RPC results.
    @Test func privateKeysNeverLeak() async throws {
        let capture = LogCapture()
        try await TestDatabase.with(logger: capture.logger) { capabilities, _ in
            let a = try await Fixtures.tenant(capabilities, slug: "leaky", bundleId: "com.example.leaky")
            let privateKey = P256.Signing.PrivateKey()
            let pem = privateKey.pemRepresentation
            let key = try await capabilities.apps.importKey(
                tenant: a.tenant.tenant, bundleId: "com.example.leaky", keyId: "LEAKY00001", issuerId: Fixtures.issuerId, p8: pem, actor: Actor("test"))
            _ = try await capabilities.signingKeys.privateKey(for: key, of: a.tenant.tenant)
            let sealed = try await capabilities.persistence.inTenant(a.tenant.tenant, .read) { try await $0.apps.sealedKey(id: key.id) }
            let export = String(decoding: try await capabilities.tenants.export(slug: "leaky"), as: UTF8.self)
            let replies = try await TestServer.with(capabilities, logger: capture.logger) { server in
                var replies: [String] = []
                for method in ["apps.list", "tenant.get", "rpc.discover"] {
                    replies.append(try await server.rpc(raw: #"{"jsonrpc":"2.0","method":"\#(method)","id":1}"#, apiKey: a.apiKey).text)
                }
                replies.append(
                    try await server.rpc(raw: #"{"jsonrpc":"2.0","method":"apps.get","params":{"bundleId":"com.example.leaky"},"id":1}"#, apiKey: a.apiKey).text
                )
                return replies
            }
            let outputs = [export] + replies + [capture.text]
            #expect(outputs[1].contains("LEAKY00001"), "the key id is visible")
            #expect(capture.text.contains("rpc call"), "the logs were captured")
            let raw = privateKey.rawRepresentation
            let forbidden = [
                pem, String(pem.split(separator: "\n")[1]), raw.base64EncodedString(), raw.map { String(format: "%02x", $0) }.joined(),
                privateKey.derRepresentation.base64EncodedString(), sealed?.ciphertext.base64EncodedString() ?? "?",
                sealed?.wrappedDataKey.base64EncodedString() ?? "?",
                a.apiKey,
            ]
            for output in outputs {
                for secret in forbidden { #expect(!output.contains(secret)) }
            }
        }
    }
}
