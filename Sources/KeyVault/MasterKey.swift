import Crypto
import Foundation

/// A key-encryption key. Its id is derived from the key itself (`mk_` + 12 hex digits of its SHA-256),
/// so a sealed key names the master key that can open it without any bookkeeping.
public struct MasterKey: Sendable {
    public let id: String
    let key: SymmetricKey

    /// `base64`: 32 random bytes, standard base64 (what `storegate keys generate-master` prints).
    public init(base64: String) throws(KeyVaultError) {
        guard let bytes = Data(base64Encoded: base64.trimmingCharacters(in: .whitespacesAndNewlines)), bytes.count == 32 else {
            throw .invalidMasterKey("a master key is 32 bytes in standard base64")
        }
        self.key = SymmetricKey(data: bytes)
        self.id = "mk_" + SHA256.hash(data: bytes).prefix(6).map { String(format: "%02x", $0) }.joined()
    }

    public static func generate() -> String {
        SymmetricKey(size: .bits256).withUnsafeBytes { Data($0).base64EncodedString() }
    }
}

/// The master keys the server knows: one active (wraps new data keys) and any previous ones (still
/// unwrap, until `rotate-master` has re-wrapped everything).
public struct MasterKeyRing: Sendable {
    public let active: MasterKey
    public let previous: [MasterKey]

    public init(active: MasterKey, previous: [MasterKey] = []) {
        self.active = active
        self.previous = previous.filter { $0.id != active.id }
    }

    func key(id: String) -> MasterKey? {
        id == active.id ? active : previous.first { $0.id == id }
    }

    /// Reads `STOREGATE_MASTER_KEY` (or the file named by `STOREGATE_MASTER_KEY_FILE`) and the optional
    /// comma-separated `STOREGATE_PREVIOUS_MASTER_KEYS`.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(KeyVaultError) -> MasterKeyRing {
        let activeText: String
        if let inline = environment["STOREGATE_MASTER_KEY"], !inline.isEmpty {
            activeText = inline
        } else if let path = environment["STOREGATE_MASTER_KEY_FILE"], !path.isEmpty {
            guard FileManager.default.fileExists(atPath: path) else { throw .missingMasterKey("STOREGATE_MASTER_KEY_FILE names no such file: \(path)") }
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw .missingMasterKey("STOREGATE_MASTER_KEY_FILE \(path) cannot be read")
            }
            activeText = text
        } else {
            throw .missingMasterKey("set STOREGATE_MASTER_KEY or STOREGATE_MASTER_KEY_FILE (storegate keys generate-master makes one)")
        }
        let previous = (environment["STOREGATE_PREVIOUS_MASTER_KEYS"] ?? "").split(separator: ",").map(String.init)
        var previousKeys: [MasterKey] = []
        for text in previous { previousKeys.append(try MasterKey(base64: text)) }
        return MasterKeyRing(active: try MasterKey(base64: activeText), previous: previousKeys)
    }
}
