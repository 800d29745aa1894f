import AppStoreServer
import Crypto
import Foundation

/// Checks an App Store Server API bearer token as Apple does: ES256 signature by a registered key
/// (`kid`), `aud` = `appstoreconnect-v1`, a registered `bid`, the key's `iss`, not expired, and a
/// lifetime of at most 60 minutes (from `iat`, or from now when the token has no `iat`). Returns the bundle ID and the claims, or nil (Apple answers 401).
enum BearerCheck {
    struct Claims: Decodable {
        let iss: String?
        let iat: Double?
        let exp: Double?
        let aud: String?
        let bid: String?
    }

    struct Header: Decodable {
        let alg: String?
        let kid: String?
        let typ: String?
    }

    static func verify(_ authorization: String?, store: SimulatorStore, now: Date) async -> (bundleId: String, claims: [String: String])? {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return nil }
        let parts = authorization.dropFirst(7).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Base64URL.decode(parts[0]), let claimsData = Base64URL.decode(parts[1]),
            let signatureData = Base64URL.decode(parts[2]), let header = try? JSONDecoder().decode(Header.self, from: headerData),
            let claims = try? JSONDecoder().decode(Claims.self, from: claimsData), header.alg == "ES256", let kid = header.kid, let bid = claims.bid,
            let app = await store.app(bid), let key = app.keys[kid],
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData),
            key.publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8))
        else { return nil }
        // `iat` is optional, as at Apple (Apple's Python library sends none): without it the lifetime counts from now.
        let issued = claims.iat ?? now.timeIntervalSince1970
        guard claims.aud == "appstoreconnect-v1", claims.iss?.lowercased() == key.issuerId, let exp = claims.exp, exp > now.timeIntervalSince1970,
            issued <= now.timeIntervalSince1970 + 60, exp - issued <= 3600
        else { return nil }
        var flat = [
            "iss": claims.iss ?? "", "aud": claims.aud ?? "", "bid": bid, "kid": kid, "typ": header.typ ?? "", "exp": String(Int64(exp)),
        ]
        if let iat = claims.iat { flat["iat"] = String(Int64(iat)) }
        return (bid, flat)
    }
}
