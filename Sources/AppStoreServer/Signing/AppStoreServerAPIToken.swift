import Foundation
import Synchronization

/// The bearer token for the App Store Server API: ES256, header `alg`/`kid`/`typ`, claims
/// `iss`, `iat`, `exp`, `aud` = `appstoreconnect-v1`, `bid`, integer seconds.
public struct AppStoreServerAPIClaims: Codable, Equatable, Sendable {
    public let iss: String
    public let iat: Int64
    public let exp: Int64
    public let aud: String
    public let bid: String

    public static let audience = "appstoreconnect-v1"
}

/// Signs bearer tokens and reuses each until shortly before it expires. Tokens live `lifetime`
/// (default 10 minutes, well under Apple's 60-minute cap) and are re-signed when less than
/// `refreshMargin` remains. Thread-safe; shared by every request made with the key.
public final class AppStoreServerAPIToken: Sendable {
    public let key: SigningKey
    let lifetime: TimeInterval
    let refreshMargin: TimeInterval
    let now: @Sendable () -> Date
    private let cached = Mutex<(token: String, expires: Date)?>(nil)

    public init(key: SigningKey, lifetime: TimeInterval = 600, refreshMargin: TimeInterval = 120, now: @escaping @Sendable () -> Date = Date.init) {
        precondition(lifetime <= 3600 && refreshMargin < lifetime, "Apple caps bearer tokens at 60 minutes")
        self.key = key
        self.lifetime = lifetime
        self.refreshMargin = refreshMargin
        self.now = now
    }

    /// A valid token: the cached one, or a new one when it is close to expiry.
    public func current() throws -> String {
        let now = now()
        if let cached = cached.withLock({ $0 }), cached.expires.timeIntervalSince(now) > refreshMargin { return cached.token }
        let issued = Int64(now.timeIntervalSince1970)
        let claims = AppStoreServerAPIClaims(
            iss: key.issuerId, iat: issued, exp: issued + Int64(lifetime), aud: AppStoreServerAPIClaims.audience, bid: key.bundleId)
        let token = try key.jws(claims: claims)
        cached.withLock { $0 = (token, Date(timeIntervalSince1970: TimeInterval(claims.exp))) }
        return token
    }
}
