import Crypto

enum P256Key {
    /// A new App Store Connect-style `.p8`: PKCS#8 PEM.
    static func generatePEM() -> String { P256.Signing.PrivateKey().pemRepresentation }
}
