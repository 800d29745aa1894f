import AppStoreServer
import Foundation
import PostgresNIO
import StoregatePostgres

/// A customer with every identifier linked to them.
public struct CustomerView: Sendable {
    public let customer: CustomerRecord
    public let links: [AccountLinkRecord]
}

/// Account linking: a stable `appAccountToken` per customer, App Store identifiers linked to customers
/// from verified signed data, and the customer found from any identifier. Moving an identifier from one
/// customer to another is refused (naming the current owner) unless the caller asks to transfer it.
public struct AccountService: Sendable {
    let database: Database
    let repositories: Repositories
    let accounts: AccountRepository
    let verification: DeviceDataVerification
    let gateway: AppStoreGateway

    public func ensure(tenant: TenantRecord, customerId: String, actor: Actor) async throws -> CustomerView {
        let customerId = try Validate.text(customerId, field: "customerId", max: 128)
        return try await database.transaction { conn in
            let (customer, created) = try await accounts.ensureCustomer(customerId: customerId, in: tenant.schema, on: conn)
            if created {
                try await repositories.audit.record(actor: actor.description, tenantId: tenant.id, action: "account.create", detail: ["customerId": customerId], on: conn)
            }
            return CustomerView(customer: customer, links: try await accounts.links(customer: customer.id, in: tenant.schema, on: conn))
        }
    }

    /// Verifies an `AppTransaction` from the device and links its `appTransactionId` to the customer.
    public func linkAppTransaction(tenant: TenantRecord, bundleId: String, customerId: String, signedAppTransaction: String, transfer: Bool, actor: Actor)
        async throws -> CustomerView
    {
        let customerId = try Validate.text(customerId, field: "customerId", max: 128)
        let app = try await app(tenant: tenant, bundleId: bundleId)
        let verified = try await verification.verify(signedAppTransaction, as: .appTransaction, app: app, field: "signedAppTransaction")
        let appTransaction = try verified.decode(AppTransaction.self)
        guard let appTransactionId = appTransaction.appTransactionId else {
            throw StoregateError.invalid(field: "signedAppTransaction", reason: "has no appTransactionId")
        }
        return try await link(tenant: tenant, app: app, customerId: customerId, ids: [("appTransactionId", appTransactionId)], transfer: transfer, actor: actor)
    }

    /// Verifies a transaction from the device, stores it and links its `originalTransactionId` and `appTransactionId`.
    public func linkTransaction(tenant: TenantRecord, bundleId: String, customerId: String, signedTransaction: String, transfer: Bool, actor: Actor)
        async throws -> CustomerView
    {
        let customerId = try Validate.text(customerId, field: "customerId", max: 128)
        let app = try await app(tenant: tenant, bundleId: bundleId)
        let verified = try await verification.verify(signedTransaction, as: .transaction, app: app, field: "signedTransaction")
        let transaction = try verified.decode(JWSTransactionDecodedPayload.self)
        guard let transactionId = transaction.transactionId, let original = transaction.originalTransactionId else {
            throw StoregateError.invalid(field: "signedTransaction", reason: "has no transactionId or originalTransactionId")
        }
        var ids = [("originalTransactionId", original)]
        if let appTransactionId = transaction.appTransactionId { ids.append(("appTransactionId", appTransactionId)) }
        let row = TransactionRow(
            appId: app.id, environment: verified.environment ?? "", transactionId: transactionId, originalTransactionId: original,
            appTransactionId: transaction.appTransactionId, customer: nil, productId: transaction.productId ?? "", productType: transaction.type?.rawValue ?? "",
            purchaseDate: transaction.purchaseDate?.date, expiresDate: transaction.expiresDate?.date, revocationDate: transaction.revocationDate?.date,
            appAccountToken: transaction.appAccountToken?.uuid, signedDate: transaction.signedDate?.date, signedTransaction: signedTransaction,
            payload: String(decoding: verified.payload, as: UTF8.self))
        return try await link(tenant: tenant, app: app, customerId: customerId, ids: ids, transfer: transfer, actor: actor, transaction: row)
    }

    /// The customer behind exactly one identifier. Transaction identifiers need the app's bundle ID.
    public func resolve(
        tenant: TenantRecord, bundleId: String?, appAccountToken: UUID?, appTransactionId: String?, originalTransactionId: String?, transactionId: String?
    ) async throws -> CustomerView {
        let given = [appAccountToken.map { _ in "appAccountToken" }, appTransactionId.map { _ in "appTransactionId" },
            originalTransactionId.map { _ in "originalTransactionId" }, transactionId.map { _ in "transactionId" }].compactMap { $0 }
        guard given.count == 1, let field = given.first else {
            throw StoregateError.invalid(field: "appAccountToken", reason: "give exactly one of appAccountToken, appTransactionId, originalTransactionId, transactionId")
        }
        let app: AppRecord? = field == "appAccountToken" ? nil : try await self.app(tenant: tenant, bundleId: bundleId ?? "")
        return try await database.withConnection { conn in
            let customerId: UUID?
            switch field {
            case "appAccountToken":
                customerId = try await accounts.customer(appAccountToken: appAccountToken ?? UUID(), in: tenant.schema, on: conn)?.id
            case "transactionId":
                let id = try Validate.transactionId(transactionId ?? "", field: field)
                customerId = try await accounts.customerOfTransaction(appId: app?.id ?? UUID(), transactionId: id, in: tenant.schema, on: conn)
            default:
                let value = try Validate.transactionId(appTransactionId ?? originalTransactionId ?? "", field: field)
                customerId = try await accounts.link(appId: app?.id ?? UUID(), kind: field, value: value, in: tenant.schema, on: conn)?.customer
            }
            guard let customerId, let customer = try await accounts.customer(id: customerId, in: tenant.schema, on: conn) else {
                throw StoregateError.notFound(field: field)
            }
            return CustomerView(customer: customer, links: try await accounts.links(customer: customer.id, in: tenant.schema, on: conn))
        }
    }

    private func app(tenant: TenantRecord, bundleId: String) async throws -> AppRecord {
        let bundleId = try Validate.bundleId(bundleId)
        return try await database.withConnection { conn in
            guard let app = try await repositories.apps.find(tenantId: tenant.id, bundleId: bundleId, on: conn) else { throw StoregateError.notFound(field: "bundleId") }
            return app
        }
    }

    func link(
        tenant: TenantRecord, app: AppRecord, customerId: String, ids: [(kind: String, value: String)], transfer: Bool, actor: Actor, transaction: TransactionRow? = nil
    ) async throws -> CustomerView {
        try await database.transaction { conn in
            let (customer, _) = try await accounts.ensureCustomer(customerId: customerId, in: tenant.schema, on: conn)
            for (kind, value) in ids {
                if let existing = try await accounts.link(appId: app.id, kind: kind, value: value, in: tenant.schema, on: conn), existing.customer != customer.id {
                    let owner = try await accounts.customer(id: existing.customer, in: tenant.schema, on: conn)?.customerId ?? "another customer"
                    guard transfer else {
                        throw StoregateError.conflict(field: kind, reason: "\(value) is linked to customer \(owner); pass transfer: true to move it")
                    }
                    try await repositories.audit.record(
                        actor: actor.description, tenantId: tenant.id, action: "account.transfer",
                        detail: ["bundleId": app.bundleId, "kind": kind, "value": value, "from": owner, "to": customerId], on: conn)
                }
                try await accounts.setLink(appId: app.id, kind: kind, value: value, customer: customer.id, in: tenant.schema, on: conn)
            }
            if let transaction {
                try await accounts.upsert(
                    TransactionRow(
                        appId: transaction.appId, environment: transaction.environment, transactionId: transaction.transactionId,
                        originalTransactionId: transaction.originalTransactionId, appTransactionId: transaction.appTransactionId, customer: customer.id,
                        productId: transaction.productId, productType: transaction.productType, purchaseDate: transaction.purchaseDate,
                        expiresDate: transaction.expiresDate, revocationDate: transaction.revocationDate, appAccountToken: transaction.appAccountToken,
                        signedDate: transaction.signedDate, signedTransaction: transaction.signedTransaction, payload: transaction.payload),
                    in: tenant.schema, on: conn)
            }
            return CustomerView(customer: customer, links: try await accounts.links(customer: customer.id, in: tenant.schema, on: conn))
        }
    }
}

/// Verifies signed data an app sent from a device, in whichever of the app's environments it names.
struct DeviceDataVerification: Sendable {
    let chains: ChainVerifier
    let allowUnsignedEnvironments: Bool

    func verify(_ jws: String, as kind: SignedPayloadKind, app: AppRecord, field: String) async throws -> VerifiedPayload {
        // The named environment only chooses the verifier: the signature is checked first either way, so
        // tampered data reads as tampered, not as being from the wrong environment.
        let named = Self.unverifiedEnvironment(jws, kind: kind)
        let acceptable = named.flatMap { environment in
            app.environments.contains(environment) || (allowUnsignedEnvironments && ["Xcode", "LocalTesting"].contains(environment)) ? environment : nil
        }
        let wrongEnvironment = StoregateError.unverified(
            field: field, failure: .wrongEnvironment(expected: app.environments.joined(separator: " or "), actual: named))
        let verifier = SignedDataVerifier(
            configuration: .init(
                bundleId: app.bundleId, appAppleId: app.appAppleId, environment: acceptable ?? app.environments.first ?? "Production",
                allowUnsignedEnvironments: allowUnsignedEnvironments),
            chains: chains)
        switch await verifier.verify(jws, as: kind) {
        case .valid(let payload):
            guard acceptable != nil else { throw wrongEnvironment }
            return payload
        case .invalid(.wrongEnvironment) where acceptable == nil: throw wrongEnvironment
        case .invalid(let failure): throw StoregateError.unverified(field: field, failure: failure)
        }
    }

    /// The environment the payload names, read before verification to choose the verifier.
    static func unverifiedEnvironment(_ jws: String, kind: SignedPayloadKind) -> String? {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = Base64URL.decode(parts[1]), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return nil
        }
        return object[kind == .appTransaction ? "receiptType" : "environment"] as? String
    }
}

extension AccountService {
    /// Calls Apple's Set App Account Token for a purchase made outside the app (an offer code, say), so its
    /// transactions carry the customer's token from now on, and links the `originalTransactionId`.
    public func setAppAccountToken(
        tenant: TenantRecord, bundleId: String, customerId: String, originalTransactionId: String, transfer: Bool, actor: Actor
    ) async throws -> CustomerView {
        let customerId = try Validate.text(customerId, field: "customerId", max: 128)
        let original = try Validate.transactionId(originalTransactionId, field: "originalTransactionId")
        let bundleId = try Validate.bundleId(bundleId)
        let found = try await database.withConnection { try await repositories.apps.signingKey(tenantId: tenant.id, bundleId: bundleId, keyId: nil, on: $0) }
        guard let (app, key) = found else { throw StoregateError.notFound(field: "bundleId") }
        guard let key else { throw StoregateError.notFound(field: "bundleId") }
        let customer = try await ensure(tenant: tenant, customerId: customerId, actor: actor).customer

        // Apple's advice: try Production, then Sandbox, when the environment is not known.
        var lastError: AppStoreServerAPIError?
        var environmentUsed: String?
        for environment in app.environments.sorted(by: { $0 == "Production" && $1 != "Production" }) {
            let client = try await gateway.client(app: app, key: key, environment: environment)
            do {
                try await client.setAppAccountToken(originalTransactionId: original, request: UpdateAppAccountTokenRequest(appAccountToken: LowercaseUUID(customer.appAccountToken)))
                environmentUsed = environment
                break
            } catch {
                lastError = error
                guard error.apiErrorCode == .transactionIdNotFound || error.apiErrorCode == .originalTransactionIdNotFound else { break }
            }
        }
        guard environmentUsed != nil else { throw Self.describe(lastError) }
        try await database.withConnection { conn in
            try await repositories.audit.record(
                actor: actor.description, tenantId: tenant.id, action: "apple.setAppAccountToken",
                detail: ["bundleId": bundleId, "originalTransactionId": original, "customerId": customerId], on: conn)
        }
        return try await link(tenant: tenant, app: app, customerId: customerId, ids: [("originalTransactionId", original)], transfer: transfer, actor: actor)
    }

    static func describe(_ error: AppStoreServerAPIError?) -> StoregateError {
        guard let error else { return .notFound(field: "bundleId") }
        let code = error.apiErrorCode?.rawValue
        let reason: String =
            switch error.apiErrorCode {
            case .familyTransactionNotSupported?: "is a family-shared purchase; Apple does not accept an appAccountToken for it"
            case .transactionIdNotOriginalTransactionId?: "is not an original transaction ID; use the purchase's originalTransactionId"
            case .transactionIdNotFound?, .originalTransactionIdNotFound?: "is not a transaction of this app in any of its environments"
            case .invalidAppAccountTokenUUID?: "was refused: the appAccountToken is not a valid UUID"
            default: error.description
            }
        return .appStore(field: "originalTransactionId", code: code, reason: reason, retryable: error.isRetryable)
    }
}

extension AccountService {
    /// The tenant's own identifier of a stored customer.
    public func customerId(tenant: TenantRecord, id: UUID) async throws -> String? {
        try await database.withConnection { try await accounts.customer(id: id, in: tenant.schema, on: $0)?.customerId }
    }
}
