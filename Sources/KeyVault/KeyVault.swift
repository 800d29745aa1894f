import Crypto
import Foundation

public enum KeyVaultError: Error, Equatable, CustomStringConvertible {
    case invalidMasterKey(String)
    /// No master key is configured (or its file cannot be read).
    case missingMasterKey(String)
    /// The sealed key names a master key the ring does not hold.
    case unknownMasterKey(id: String)
    /// Authentication failed: the wrong master key, a tampered ciphertext, or a key moved to another row.
    case authenticationFailed
    case unsupportedFormat(Int)

    public var description: String {
        switch self {
        case .invalidMasterKey(let reason): "invalid master key: \(reason)"
        case .missingMasterKey(let reason): "no master key: \(reason)"
        case .unknownMasterKey(let id): "the key is sealed with master key \(id), which is not configured"
        case .authenticationFailed: "the sealed key failed authentication (wrong master key or tampered data)"
        case .unsupportedFormat(let v): "unsupported sealed-key format \(v)"
        }
    }
}

/// A private key sealed at rest: the key bytes encrypted with a random data key, the data key wrapped by
/// a master key, both authenticated with the same additional data (tenant, app and key ids).
public struct SealedKey: Sendable, Equatable {
    public static let currentFormat = 1
    public let format: Int
    public let masterKeyId: String
    /// nonce ‖ ciphertext ‖ tag of the 32-byte data key.
    public let wrappedDataKey: Data
    /// nonce ‖ ciphertext ‖ tag of the private key.
    public let ciphertext: Data

    public init(format: Int, masterKeyId: String, wrappedDataKey: Data, ciphertext: Data) {
        self.format = format
        self.masterKeyId = masterKeyId
        self.wrappedDataKey = wrappedDataKey
        self.ciphertext = ciphertext
    }
}

/// Envelope encryption with AES-256-GCM. Without a master key ring every operation fails closed with
/// the reason the master keys could not be loaded, so commands that never touch keys can run without one.
public struct KeyVault: Sendable {
    let configuredRing: MasterKeyRing?
    /// Why there is no ring: thrown as it is by every operation.
    let unavailable: KeyVaultError

    public init(ring: MasterKeyRing) {
        self.configuredRing = ring
        self.unavailable = .missingMasterKey("")
    }

    /// A vault that fails closed with `error` (the reason the master keys could not be loaded).
    public init(unavailable error: KeyVaultError) {
        self.configuredRing = nil
        self.unavailable = error
    }

    public init(unavailable reason: String) {
        self.init(unavailable: .missingMasterKey(reason))
    }

    public func ring() throws(KeyVaultError) -> MasterKeyRing {
        guard let configuredRing else { throw unavailable }
        return configuredRing
    }

    /// The additional authenticated data that binds a sealed key to where it is stored.
    public static func associatedData(tenantId: UUID, appId: UUID, keyId: String) -> Data {
        Data("storegate.v1|\(tenantId.uuidString.lowercased())|\(appId.uuidString.lowercased())|\(keyId)".utf8)
    }

    public func seal(_ secret: Data, associatedData aad: Data) throws -> SealedKey {
        let ring = try ring()
        let dataKey = SymmetricKey(size: .bits256)
        let ciphertext = try AES.GCM.seal(secret, using: dataKey, authenticating: aad).combined!
        let wrapped = try AES.GCM.seal(dataKey.withUnsafeBytes { Data($0) }, using: ring.active.key, authenticating: aad).combined!
        return SealedKey(format: SealedKey.currentFormat, masterKeyId: ring.active.id, wrappedDataKey: wrapped, ciphertext: ciphertext)
    }

    public func open(_ sealed: SealedKey, associatedData aad: Data) throws(KeyVaultError) -> Data {
        let dataKey = try unwrap(sealed, associatedData: aad)
        do {
            return try AES.GCM.open(AES.GCM.SealedBox(combined: sealed.ciphertext), using: dataKey, authenticating: aad)
        } catch {
            throw .authenticationFailed
        }
    }

    /// Re-wraps the data key under the active master key; the ciphertext of the private key is untouched.
    public func rewrap(_ sealed: SealedKey, associatedData aad: Data) throws -> SealedKey {
        let ring = try ring()
        let dataKey = try unwrap(sealed, associatedData: aad)
        let wrapped = try AES.GCM.seal(dataKey.withUnsafeBytes { Data($0) }, using: ring.active.key, authenticating: aad).combined!
        return SealedKey(format: sealed.format, masterKeyId: ring.active.id, wrappedDataKey: wrapped, ciphertext: sealed.ciphertext)
    }

    private func unwrap(_ sealed: SealedKey, associatedData aad: Data) throws(KeyVaultError) -> SymmetricKey {
        guard sealed.format == SealedKey.currentFormat else { throw .unsupportedFormat(sealed.format) }
        guard let master = try ring().key(id: sealed.masterKeyId) else { throw .unknownMasterKey(id: sealed.masterKeyId) }
        do {
            let bytes = try AES.GCM.open(AES.GCM.SealedBox(combined: sealed.wrappedDataKey), using: master.key, authenticating: aad)
            guard bytes.count == 32 else { throw KeyVaultError.authenticationFailed }
            return SymmetricKey(data: bytes)
        } catch {
            throw .authenticationFailed
        }
    }
}
