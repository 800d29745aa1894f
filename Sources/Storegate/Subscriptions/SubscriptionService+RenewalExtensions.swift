import AppStoreServer
import Foundation

/// Renewal-date extensions: one subscription (1–90 days, at most twice in 365 days, checked here before
/// Apple is called) or every active subscriber of a product.
extension SubscriptionService {
    public struct Extension: Sendable {
        public let requestIdentifier: String
        public let originalTransactionId: String
        public let success: Bool
        public let effectiveDate: Date?
    }

    static func validateExtension(days: Int, reasonCode: Int, requestIdentifier: String?) throws -> String {
        guard (1...90).contains(days) else { throw StoregateError.invalid(field: "extendByDays", reason: "must be 1 to 90") }
        guard (0...3).contains(reasonCode) else {
            throw StoregateError.invalid(
                field: "extendReasonCode", reason: "must be 0 (undeclared), 1 (customer satisfaction), 2 (other) or 3 (service issue or outage)")
        }
        let identifier = requestIdentifier ?? UUID().uuidString.lowercased()
        guard (1...128).contains(identifier.utf8.count), identifier.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
            throw StoregateError.invalid(field: "requestIdentifier", reason: "must be 1 to 128 printable ASCII characters")
        }
        return identifier
    }

    public func extendRenewalDate(
        tenant: Tenant, bundleId: String, originalTransactionId: String, extendByDays days: Int, extendReasonCode reasonCode: Int, requestIdentifier: String?,
        actor: Actor
    ) async throws -> Extension {
        let app = try await persistence.app(tenant, bundleId: bundleId)
        let original = try Validate.transactionId(originalTransactionId, field: "originalTransactionId")
        let identifier = try Self.validateExtension(days: days, reasonCode: reasonCode, requestIdentifier: requestIdentifier)
        // Reserve one of the two yearly extensions before calling Apple, under a lock, so two calls cannot both pass.
        let reserved = try await persistence.inTenant(tenant, conflictField: "requestIdentifier") { unit -> RenewalExtension in
            try await unit.extensions.lock(appId: app.id, originalTransactionId: original)
            let recent = try await unit.extensions.recent(appId: app.id, originalTransactionId: original)
            if recent.count >= 2 {
                let dates = recent.map { $0.formatted(.iso8601) }.joined(separator: " and ")
                throw StoregateError.conflict(
                    field: "originalTransactionId", reason: "was extended on \(dates); Apple allows two extensions per subscription in 365 days")
            }
            let environment = try await unit.subscriptions.list(appId: app.id, originalTransactionId: original).first?.environment
            let reserved = RenewalExtension(
                requestIdentifier: identifier, appId: app.id, environment: environment, originalTransactionId: original, productId: nil, days: days,
                reasonCode: reasonCode, mass: false)
            try await unit.extensions.record(reserved)
            return reserved
        }
        let request = ExtendRenewalDateRequest(
            extendByDays: Int32(days), extendReasonCode: ExtendReasonCode(rawValue: Int32(reasonCode)), requestIdentifier: identifier)
        let response: ExtendRenewalDateResponse
        let usedEnvironment: AppStoreEnvironment
        do {
            (response, usedEnvironment) = try await gateway.firstEnvironment(
                tenant: tenant, app: app, preferring: reserved.environment, field: "originalTransactionId"
            ) {
                client throws(AppStoreServerAPIError) in try await client.extendSubscriptionRenewalDate(originalTransactionId: original, request: request)
            }
        } catch {
            try? await persistence.inTenant(tenant, .read) { unit in
                try await unit.extensions.record(reserved.with(environment: reserved.environment, effectiveDate: nil, succeeded: false))
            }
            throw error
        }
        let success = response.success ?? false
        try await persistence.inTenant(tenant) { unit in
            try await unit.extensions.record(reserved.with(environment: usedEnvironment, effectiveDate: response.effectiveDate?.date, succeeded: success))
            if success, let effective = response.effectiveDate?.date {
                // Apple's RENEWAL_EXTENDED may have been applied first and moved the date: it leaves saying
                // `subscription.extended` to this request all the same (`LifecycleEvents.stored`).
                _ = try await unit.subscriptions.extend(appId: app.id, originalTransactionId: original, to: effective)
                let customer = try await unit.customers.owner(appId: app.id, originalTransactionId: original, appAccountToken: nil, appTransactionId: nil)
                var events = [try Events.renewalExtended(reserved, environment: usedEnvironment, customer: customer, effectiveDate: effective, by: actor)]
                if let event = try await LifecycleEvents.extended(
                    appId: app.id, originalTransactionId: original, days: days, effectiveDate: effective, customer: customer, in: unit)
                {
                    events.append(event)
                }
                try await unit.events.append(events)
            }
            try await unit.audit(
                actor, "apple.extendRenewalDate",
                ["bundleId": app.bundleId, "originalTransactionId": original, "extendByDays": String(days), "requestIdentifier": identifier])
        }
        return Extension(requestIdentifier: identifier, originalTransactionId: original, success: success, effectiveDate: response.effectiveDate?.date)
    }

    /// Extends every active subscriber of `productId` (optionally in some storefronts); returns the request identifier.
    public func extendAll(
        tenant: Tenant, bundleId: String, environment: AppStoreEnvironment?, productId: String, extendByDays days: Int, extendReasonCode reasonCode: Int,
        storefrontCountryCodes: [String]?, requestIdentifier: String?, actor: Actor
    ) async throws -> String {
        let app = try await persistence.app(tenant, bundleId: bundleId)
        let productId = try Validate.text(productId, field: "productId", max: 255)
        let identifier = try Self.validateExtension(days: days, reasonCode: reasonCode, requestIdentifier: requestIdentifier)
        if let codes = storefrontCountryCodes {
            guard !codes.isEmpty, codes.allSatisfy({ $0.count == 3 && $0.allSatisfy { $0.isASCII && $0.isUppercase } }) else {
                throw StoregateError.invalid(field: "storefrontCountryCodes", reason: "must be a non-empty list of ISO 3166-1 alpha-3 codes such as USA")
            }
        }
        let environment = try app.environment(environment)
        let client = try await gateway.client(tenant: tenant, app: app, environment: environment)
        let request = MassExtendRenewalDateRequest(
            extendByDays: Int32(days), extendReasonCode: ExtendReasonCode(rawValue: Int32(reasonCode)), requestIdentifier: identifier,
            storefrontCountryCodes: storefrontCountryCodes, productId: productId)
        do {
            _ = try await client.extendRenewalDateForAllActiveSubscribers(request: request)
        } catch {
            throw AppStoreGateway.storegateError(error, field: "productId")
        }
        try await persistence.inTenant(tenant, conflictField: "requestIdentifier") { unit in
            try await unit.extensions.record(
                RenewalExtension(
                    requestIdentifier: identifier, appId: app.id, environment: environment, originalTransactionId: nil, productId: productId, days: days,
                    reasonCode: reasonCode, mass: true))
            try await unit.audit(
                actor, "apple.extendRenewalDateForAll",
                ["bundleId": app.bundleId, "productId": productId, "extendByDays": String(days), "requestIdentifier": identifier])
        }
        return identifier
    }

    /// Apple's progress on a mass extension: the summary Apple's `RENEWAL_EXTENSION` notification
    /// brought, else Apple's Get Status of Subscription Renewal Date Extensions.
    public func extensionStatus(
        tenant: Tenant, bundleId: String, environment: AppStoreEnvironment?, productId: String, requestIdentifier: String
    ) async throws
        -> MassExtendRenewalDateStatusResponse
    {
        let app = try await persistence.app(tenant, bundleId: bundleId)
        let productId = try Validate.text(productId, field: "productId", max: 255)
        let identifier = try Self.validateExtension(days: 1, reasonCode: 0, requestIdentifier: requestIdentifier)
        // Apple's RENEWAL_EXTENSION summary, once it arrived, answers without a call.
        if let summary = try await persistence.inTenant(tenant, .read, { try await $0.extensions.summary(appId: app.id, requestIdentifier: identifier) }),
            summary.productId == nil || summary.productId == productId
        {
            return MassExtendRenewalDateStatusResponse(
                requestIdentifier: identifier, complete: true, completeDate: Timestamp(summary.completedAt), succeededCount: summary.succeededCount,
                failedCount: summary.failedCount)
        }
        let client = try await gateway.client(tenant: tenant, app: app, environment: try app.environment(environment))
        do {
            return try await client.getStatusOfSubscriptionRenewalDateExtensions(requestIdentifier: identifier, productId: productId)
        } catch {
            throw AppStoreGateway.storegateError(error, field: "requestIdentifier")
        }
    }
}
