import AppStoreServer
import AsyncHTTPClient
import Foundation
import Synchronization
import StoregatePostgres

/// App Store Server API clients for the tenants' apps: one per key and environment, reusing the key's
/// cached bearer token, all on one shared `HTTPClient`. `baseURL` replaces Apple's hosts (the simulator).
public final class AppStoreGateway: Sendable {
    let http: HTTPClient
    let baseURL: String?
    let signingKeys: SigningKeyStore
    let retry: RetryPolicy
    private let tokens = Mutex([UUID: AppStoreServerAPIToken]())

    init(http: HTTPClient, baseURL: String?, signingKeys: SigningKeyStore, retry: RetryPolicy = RetryPolicy()) {
        self.http = http
        self.baseURL = baseURL
        self.signingKeys = signingKeys
        self.retry = retry
    }

    func client(app: AppRecord, key: AppKeyRecord, environment: String) async throws -> AppStoreServerAPIClient {
        let token: AppStoreServerAPIToken
        if let cached = tokens.withLock({ $0[key.id] }) {
            token = cached
        } else {
            let privateKey = try await signingKeys.privateKey(for: key)
            let created = AppStoreServerAPIToken(key: SigningKey(keyId: key.keyId, issuerId: key.issuerId.uuidString, bundleId: app.bundleId, privateKey: privateKey))
            token = tokens.withLock { tokens in
                if let existing = tokens[key.id] { return existing }
                tokens[key.id] = created
                return created
            }
        }
        let target: AppStoreServerAPIClient.Environment =
            if let baseURL { .custom(baseURL) } else { environment == "Production" ? .production : .sandbox }
        return AppStoreServerAPIClient(http: http, token: token, environment: target, retry: retry)
    }
}
