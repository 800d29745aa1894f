import Crypto
import Foundation

/// Reads an App Store Connect `.p8` file: a PEM `PRIVATE KEY` block holding a PKCS#8 P-256 key.
public enum PrivateKeyPEM {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case notPEM
        case notPKCS8
        case notP256

        public var description: String {
            switch self {
            case .notPEM: "the file is not a PEM private key (expected -----BEGIN PRIVATE KEY-----)"
            case .notPKCS8: "the key is not PKCS#8: App Store Connect .p8 files begin with -----BEGIN PRIVATE KEY-----"
            case .notP256: "the key is not an EC P-256 private key"
            }
        }
    }

    /// Parses the key; the error never quotes the input.
    public static func parse(_ pem: String) throws(Failure) -> P256.Signing.PrivateKey {
        let trimmed = pem.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("-----BEGIN "), trimmed.contains("-----END ") else { throw .notPEM }
        guard trimmed.hasPrefix("-----BEGIN PRIVATE KEY-----"), trimmed.hasSuffix("-----END PRIVATE KEY-----") else { throw .notPKCS8 }
        do {
            return try P256.Signing.PrivateKey(pemRepresentation: trimmed)
        } catch {
            throw .notP256
        }
    }
}
