import AppStoreServer
import AsyncHTTPClient
import Foundation
import Synchronization

/// App Store Server API clients for the tenants' apps: one per key and environment, reusing the key's
/// cached bearer token, all on one shared `HTTPClient`. `baseURL` replaces Apple's hosts: an App Store
/// simulator's address, which serves each environment under its own path (`/production`, `/sandbox`).
public final class AppStoreGateway: Sendable {
    let http: HTTPClient
    let baseURL: String?
    let signingKeys: SigningKeyStore
    let retry: RetryPolicy
    let persistence: any Persistence
    private let tokens = Mutex([UUID: AppStoreServerAPIToken]())

    init(http: HTTPClient, baseURL: String?, signingKeys: SigningKeyStore, persistence: any Persistence, retry: RetryPolicy = RetryPolicy()) {
        self.http = http
        self.persistence = persistence
        self.baseURL = baseURL
        self.signingKeys = signingKeys
        self.retry = retry
    }

    func client(tenant: Tenant, app: App, key: AppKey, environment: AppStoreEnvironment) async throws -> AppStoreServerAPIClient {
        let token: AppStoreServerAPIToken
        if let cached = tokens.withLock({ $0[key.id] }) {
            token = cached
        } else {
            let privateKey = try await signingKeys.privateKey(for: key, of: tenant)
            let created = AppStoreServerAPIToken(
                key: SigningKey(keyId: key.keyId, issuerId: key.issuerId.uuidString, bundleId: app.bundleId, privateKey: privateKey))
            token = tokens.withLock { tokens in
                if let existing = tokens[key.id] { return existing }
                tokens[key.id] = created
                return created
            }
        }
        let target: AppStoreServerAPIClient.Environment =
            if let baseURL { .custom((baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL) + "/" + environment.rawValue.lowercased()) } else {
                environment == .production ? .production : .sandbox
            }
        return AppStoreServerAPIClient(http: http, token: token, environment: target, retry: retry)
    }

    /// A client for the app's newest key in `environment`; `notFound(bundleId)` when the app has no key.
    func client(tenant: Tenant, app: App, environment: AppStoreEnvironment) async throws -> AppStoreServerAPIClient {
        let found = try await persistence.inTenant(tenant, .read) { try await $0.apps.signingKey(bundleId: app.bundleId, keyId: nil) }
        guard let key = found?.key else {
            throw StoregateError.invalid(field: "bundleId", reason: "has no In-App Purchase key; import one with `storegate app key import`")
        }
        return try await client(tenant: tenant, app: app, key: key, environment: environment)
    }

    /// Calls Apple in each of the app's environments, Production first, until one knows the transaction
    /// (Apple's advice when the environment is not known). Returns the result and the environment.
    func firstEnvironment<T: Sendable>(
        tenant: Tenant, app: App, preferring known: AppStoreEnvironment? = nil, field: String,
        _ call: (AppStoreServerAPIClient) async throws(AppStoreServerAPIError) -> T
    ) async throws -> (T, environment: AppStoreEnvironment) {
        var order = app.environmentsProductionFirst
        if let known, order.contains(known) { order = [known] + order.filter { $0 != known } }
        var lastError: AppStoreServerAPIError?
        for environment in order {
            let client = try await client(tenant: tenant, app: app, environment: environment)
            do {
                return (try await call(client), environment)
            } catch {
                lastError = error
                let notHere: [APIErrorCode] = [.transactionIdNotFound, .originalTransactionIdNotFound, .appTransactionDoesNotExist]
                guard let code = error.apiErrorCode, notHere.contains(code) else { break }
            }
        }
        throw Self.storegateError(lastError, field: field)
    }

    static func storegateError(_ error: AppStoreServerAPIError?, field: String) -> StoregateError {
        guard let error else { return .notFound(field: field) }
        return .appStore(field: field, code: error.apiErrorCode?.rawValue, reason: error.description, retryable: error.isRetryable)
    }
}
