import AppStoreServer
import Contract
import Foundation

/// A customer with every identifier linked to them, as stored.
struct CustomerView: Sendable {
    let customer: Customer
    let links: [AccountLink]
}

/// A customer as every `accounts.*` method answers: the tenant's id of them, their stable
/// `appAccountToken`, and the App Store identifiers linked to them, each with its app's bundle ID.
@RPCObject(title: "Customer") public struct LinkedCustomer: Sendable {
    public let customerId: String
    /// Pass to StoreKit's appAccountToken purchase option.
    @Field(.uuid) public let appAccountToken: String
    public let createdAt: Date
    public let links: [Link]

    @RPCObject public struct Link: Sendable {
        public let bundleId: String
        public let kind: AccountLink.Kind
        public let value: String
        public let linkedAt: Date
    }

    init(_ view: CustomerView, directory: AppDirectory, tenant: Tenant) async throws {
        let bundles = try await directory.bundleIds(tenant: tenant, covering: view.links.map(\.appId))
        customerId = view.customer.customerId
        appAccountToken = view.customer.appAccountToken.uuidString.lowercased()
        createdAt = view.customer.createdAt
        links = view.links.map { Link(bundleId: bundles[$0.appId] ?? "", kind: $0.kind, value: $0.value, linkedAt: $0.linkedAt) }
    }
}

/// Signed data a customer's device sends to be linked to them, each as its JWS (`jwsRepresentation`).
public enum DeviceSignedData: Sendable {
    /// `AppTransaction.shared`: links the `appTransactionId`.
    case appTransaction(String)
    /// A `Transaction`: links its `originalTransactionId` and `appTransactionId`, and is stored.
    case transaction(String)
}

/// Account linking: a stable `appAccountToken` per customer, App Store identifiers linked to customers
/// from verified signed data, and the customer found from any identifier. Moving an identifier from one
/// customer to another is refused (naming the current owner) unless the caller asks to transfer it.
public struct AccountService: Sendable {
    let persistence: any Persistence
    let verification: Verification
    let gateway: AppStoreGateway
    let directory: AppDirectory

    public func ensure(tenant: Tenant, customerId: String, actor: Actor) async throws -> LinkedCustomer {
        try await LinkedCustomer(try await ensured(tenant: tenant, customerId: customerId, actor: actor), directory: directory, tenant: tenant)
    }

    /// The stored customer, created on first use, for tools that work below the API (the bench).
    public func ensureCustomer(tenant: Tenant, customerId: String, actor: Actor) async throws -> Customer {
        try await ensured(tenant: tenant, customerId: customerId, actor: actor).customer
    }

    func ensured(tenant: Tenant, customerId: String, actor: Actor) async throws -> CustomerView {
        let customerId = try Validate.customerId(customerId)
        return try await persistence.inTenant(tenant) { unit in
            let (customer, created) = try await unit.customers.ensure(customerId: customerId)
            if created { try await unit.audit(actor, "account.create", ["customerId": customerId]) }
            return CustomerView(customer: customer, links: try await unit.customers.links(customer: customer.id))
        }
    }

    /// Verifies signed data from the customer's device and links what it identifies to the customer: an
    /// `AppTransaction`'s `appTransactionId`; a transaction's `originalTransactionId` and `appTransactionId`,
    /// the transaction stored as well.
    public func link(
        _ signed: DeviceSignedData, tenant: Tenant, bundleId: String, customerId: String, transfer: Bool, actor: Actor
    ) async throws -> LinkedCustomer {
        let customerId = try Validate.customerId(customerId)
        let app = try await persistence.app(tenant, bundleId: bundleId)
        var ids: [(AccountLink.Kind, String)] = []
        var transaction: StoredTransaction?
        switch signed {
        case .appTransaction(let jws):
            let field = "signedAppTransaction"
            let appTransaction = try await verification.verify(jws, as: .appTransaction, app: app, field: field).decode(AppTransaction.self)
            guard let appTransactionId = appTransaction.appTransactionId else { throw StoregateError.invalid(field: field, reason: "has no appTransactionId") }
            ids.append((.appTransactionId, appTransactionId))
        case .transaction(let jws):
            let field = "signedTransaction"
            let verified = try await verification.verify(jws, as: .transaction, app: app, field: field)
            let purchase = try SignedPurchase(verified, signedTransaction: jws, renewal: nil, environment: AppStoreEnvironment(rawValue: ""), field: field)
            ids.append((.originalTransactionId, purchase.originalTransactionId))
            if let appTransactionId = purchase.transaction.appTransactionId { ids.append((.appTransactionId, appTransactionId)) }
            transaction = purchase.stored(appId: app.id, customer: nil)
        }
        return try await LinkedCustomer(
            try await link(tenant: tenant, app: app, customerId: customerId, ids: ids, transfer: transfer, actor: actor, transaction: transaction),
            directory: directory, tenant: tenant)
    }

    /// The customer behind exactly one identifier. Transaction identifiers need the app's bundle ID.
    public func resolve(
        tenant: Tenant, bundleId: String?, appAccountToken: UUID?, appTransactionId: String?, originalTransactionId: String?, transactionId: String?,
        orderId: String? = nil
    ) async throws -> LinkedCustomer {
        let view = try await resolved(
            tenant: tenant, bundleId: bundleId, appAccountToken: appAccountToken, appTransactionId: appTransactionId,
            originalTransactionId: originalTransactionId, transactionId: transactionId, orderId: orderId)
        return try await LinkedCustomer(view, directory: directory, tenant: tenant)
    }

    func resolved(
        tenant: Tenant, bundleId: String?, appAccountToken: UUID?, appTransactionId: String?, originalTransactionId: String?, transactionId: String?,
        orderId: String? = nil
    ) async throws -> CustomerView {
        let given: [(field: String, value: String)] = [
            ("appAccountToken", appAccountToken?.uuidString), ("appTransactionId", appTransactionId), ("originalTransactionId", originalTransactionId),
            ("transactionId", transactionId), ("orderId", orderId),
        ].compactMap { field, value in value.map { (field, $0) } }
        guard given.count == 1, let (field, value) = given.first else {
            throw StoregateError.invalid(
                field: "appAccountToken", reason: "give exactly one of appAccountToken, appTransactionId, originalTransactionId, transactionId, orderId")
        }
        // A transaction ID is one app's; an order ID is Apple's across apps (bundleId narrows it).
        let app: App? =
            switch (field, bundleId) {
            case ("appAccountToken", _), ("orderId", nil): nil
            default: try await persistence.app(tenant, bundleId: bundleId ?? "")
            }
        let id =
            switch field {
            case "appAccountToken": value
            case "orderId": try Validate.orderId(value)
            default: try Validate.transactionId(value, field: field)
            }
        return try await persistence.inTenant(tenant, .read) { unit in
            let customerId: UUID? =
                switch (field, app) {
                case ("appAccountToken", _): try await unit.customers.find(appAccountToken: appAccountToken ?? UUID())?.id
                case ("orderId", _): try await unit.transactions.customer(orderId: id, appId: app?.id)
                case ("transactionId", let app?): try await unit.transactions.facts(appId: app.id, transactionId: id)?.customer
                case (_, let app?):
                    try await unit.customers.link(appId: app.id, kind: AccountLink.Kind(rawValue: field) ?? .originalTransactionId, value: id)?.customer
                default: nil
                }
            guard let customerId, let customer = try await unit.customers.find(id: customerId) else { throw StoregateError.notFound(field: field) }
            return CustomerView(customer: customer, links: try await unit.customers.links(customer: customer.id))
        }
    }

    func link(
        tenant: Tenant, app: App, customerId: String, ids: [(kind: AccountLink.Kind, value: String)], transfer: Bool, actor: Actor,
        transaction: StoredTransaction? = nil
    ) async throws -> CustomerView {
        try await persistence.inTenant(tenant) { unit in
            let (customer, _) = try await unit.customers.ensure(customerId: customerId)
            var events: [NewEvent] = []
            for (kind, value) in ids {
                let existing = try await unit.customers.link(appId: app.id, kind: kind, value: value)
                if let existing, existing.customer == customer.id { continue }
                if let existing {
                    let owner = try await unit.customers.find(id: existing.customer)?.customerId ?? "another customer"
                    guard transfer else {
                        throw StoregateError.conflict(field: kind.rawValue, reason: "\(value) is linked to customer \(owner); pass transfer: true to move it")
                    }
                    try await unit.audit(
                        actor, "account.transfer", ["bundleId": app.bundleId, "kind": kind.rawValue, "value": value, "from": owner, "to": customerId])
                    events.append(try Events.accountTransferred(appId: app.id, kind: kind, value: value, from: owner, to: customer.id))
                    if kind == .originalTransactionId,
                        let event = try await LifecycleEvents.transferred(
                            appId: app.id, bundleId: app.bundleId, originalTransactionId: value, from: owner, to: customer.id, in: unit)
                    {
                        events.append(event)
                    }
                } else {
                    events.append(try Events.accountLinked(appId: app.id, kind: kind, value: value, customer: customer.id))
                }
                try await unit.customers.setLink(appId: app.id, kind: kind, value: value, customer: customer.id)
            }
            if var transaction {
                transaction.customer = customer.id
                if try await unit.transactions.upsert(transaction) { events.append(try Events.purchaseCreated(transaction)) }
            }
            try await unit.events.append(events)
            return CustomerView(customer: customer, links: try await unit.customers.links(customer: customer.id))
        }
    }
}

extension AccountService {
    /// Calls Apple's Set App Account Token for a purchase made outside the app (an offer code, say), so its
    /// transactions carry the customer's token from now on, and links the `originalTransactionId`.
    public func setAppAccountToken(
        tenant: Tenant, bundleId: String, customerId: String, originalTransactionId: String, transfer: Bool, actor: Actor
    ) async throws -> LinkedCustomer {
        let customerId = try Validate.customerId(customerId)
        let original = try Validate.transactionId(originalTransactionId, field: "originalTransactionId")
        let bundleId = try Validate.bundleId(bundleId)
        let found = try await persistence.inTenant(tenant, .read) { try await $0.apps.signingKey(bundleId: bundleId, keyId: nil) }
        guard let (app, key) = found else { throw StoregateError.notFound(field: "bundleId") }
        guard let key else { throw StoregateError.notFound(field: "bundleId") }
        let customer = try await ensured(tenant: tenant, customerId: customerId, actor: actor).customer

        // Apple's advice: try Production, then Sandbox, when the environment is not known.
        var lastError: AppStoreServerAPIError?
        var environmentUsed: AppStoreEnvironment?
        for environment in app.environmentsProductionFirst {
            let client = try await gateway.client(tenant: tenant, app: app, key: key, environment: environment)
            do {
                try await client.setAppAccountToken(
                    originalTransactionId: original, request: UpdateAppAccountTokenRequest(appAccountToken: LowercaseUUID(customer.appAccountToken)))
                environmentUsed = environment
                break
            } catch {
                lastError = error
                guard error.apiErrorCode == .transactionIdNotFound || error.apiErrorCode == .originalTransactionIdNotFound else { break }
            }
        }
        guard environmentUsed != nil else { throw Self.describe(lastError) }
        try await persistence.inTenant(tenant, .read) { unit in
            try await unit.audit(actor, "apple.setAppAccountToken", ["bundleId": bundleId, "originalTransactionId": original, "customerId": customerId])
        }
        return try await LinkedCustomer(
            try await link(tenant: tenant, app: app, customerId: customerId, ids: [(.originalTransactionId, original)], transfer: transfer, actor: actor),
            directory: directory, tenant: tenant)
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
