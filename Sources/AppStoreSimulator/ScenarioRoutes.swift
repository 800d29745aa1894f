import AppStoreServer
import Crypto
import Foundation
import Hummingbird
import NIOCore
import SwiftASN1
import X509

/// `/simulator/…`: the scenario API people and tests drive the simulator with (no bearer token).
extension AppStoreSimulator {
    struct AppRequest: Decodable {
        let bundleId: String
        /// Required for a Production app; a Sandbox app may have none (Apple's Sandbox data carries none).
        let appAppleId: Int64?
        let environment: String?
        let notificationURL: String?
    }

    struct KeyRequest: Decodable {
        let keyId: String
        let issuerId: String
        /// The public key, PEM (`-----BEGIN PUBLIC KEY-----`).
        let publicKey: String
    }

    struct PurchaseRequest: Decodable {
        let customer: String
        let bundleId: String
        let productId: String
        /// Apple's product type: `Auto-Renewable Subscription`, `Non-Consumable`, `Consumable`, `Non-Renewing Subscription`.
        let type: String
        let appAccountToken: UUID?
        let quantity: Int32?
        let price: Int64?
        let subscriptionGroupIdentifier: String?
        let periodSeconds: Double?
        let familyShared: Bool?
        let offerType: Int32?
        let offerIdentifier: String?
        /// `MONTHLY` for a monthly subscription with a 12-month commitment, `BILLED_UPFRONT` for a standard one.
        let billingPlanType: String?
    }

    struct ChangeRequest: Decodable {
        let gracePeriodSeconds: Double?
        let billingRetryExhausted: Bool?
        let enabled: Bool?
        let percentage: Int32?
        let reason: String?
        let productId: String?
        let upgrade: Bool?
        let offerType: Int32?
        let offerIdentifier: String?
        let price: Int64?
        let accepted: Bool?
        let bundleId: String?
        /// The plan to renew on after a product change: `MONTHLY` or `BILLED_UPFRONT`.
        let billingPlanType: String?
    }

    struct ExternalPurchaseTokenRequest: Decodable {
        /// UNREPORTED, CREATED or ACTIVE_TOKEN_REMINDER.
        let subtype: String
        /// A custom link token's type (SERVICES by default).
        let tokenType: String?
        /// A token announced before (a reminder); absent: a new token.
        let externalPurchaseId: String?
    }

    struct FaultRequest: Decodable {
        /// `rateLimited`, `serverError` or `slow`.
        let kind: String
        let milliseconds: Int64?
        let times: Int?
    }

    func addScenarioRoutes(to router: Router<SimulatorContext>) {
        let scenario = router.group("simulator").add(middleware: ScenarioErrorMiddleware())
        addRetentionScenarioRoutes(to: scenario)
        scenario.get("root.der") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/pkix-cert"], body: .init(byteBuffer: ByteBuffer(bytes: ca.rootDER)))
        }
        scenario.post("apps") { request, context in
            let body = try await request.decode(as: AppRequest.self, context: context)
            let environment = AppStoreEnvironment(rawValue: body.environment ?? "Sandbox")
            guard [.sandbox, .production].contains(environment) else {
                throw ScenarioError.invalid(field: "environment", reason: "must be Sandbox or Production")
            }
            guard body.appAppleId != nil || environment == .sandbox else {
                throw ScenarioError.invalid(field: "appAppleId", reason: "is required for a Production app (App Store Connect → App Information → Apple ID)")
            }
            await store.register(bundleId: body.bundleId, appAppleId: body.appAppleId, environment: environment)
            await store.setNotificationURL(bundleId: body.bundleId, url: body.notificationURL)
            return Response(status: .created)
        }
        scenario.post("apps/:bundleId/keys") { request, context in
            let body = try await request.decode(as: KeyRequest.self, context: context)
            guard let key = try? P256.Signing.PublicKey(pemRepresentation: body.publicKey) else {
                throw HTTPError(.badRequest, message: "publicKey must be a P-256 PEM public key")
            }
            let bundleId = try context.parameters.require("bundleId")
            guard await store.app(bundleId) != nil else { throw ScenarioError.unknownApp(bundleId) }
            await store.registerKey(bundleId: bundleId, keyId: body.keyId, issuerId: body.issuerId, publicKey: key)
            return Response(status: .created)
        }
        scenario.post("purchases") { request, context in
            let body = try await request.decode(as: PurchaseRequest.self, context: context)
            var purchase = SimulatorStore.Purchase(
                customer: body.customer, bundleId: body.bundleId, productId: body.productId, type: ProductType(rawValue: body.type),
                appAccountToken: body.appAccountToken)
            purchase.quantity = body.quantity ?? 1
            purchase.price = body.price ?? purchase.price
            purchase.subscriptionGroupIdentifier = body.subscriptionGroupIdentifier
            purchase.period = body.periodSeconds ?? purchase.period
            purchase.familyShared = body.familyShared ?? false
            purchase.offerType = body.offerType.map(OfferType.init(rawValue:))
            purchase.offerIdentifier = body.offerIdentifier
            if let plan = body.billingPlanType {
                guard BillingPlanType.known.map(\.rawValue).contains(plan) else {
                    throw ScenarioError.invalid(field: "billingPlanType", reason: "must be MONTHLY or BILLED_UPFRONT")
                }
                purchase.billingPlanType = BillingPlanType(rawValue: plan)
            }
            return Self.json(try await self.purchase(purchase), status: .created)
        }
        scenario.post("subscriptions/:id/:action") { request, context in
            let id = try context.parameters.require("id")
            let body = (try? await request.decode(as: ChangeRequest.self, context: context))
            switch try context.parameters.require("action") {
            case "renew": return Self.json(try await renew(originalTransactionId: id))
            case "fail-renewal": try await failRenewal(originalTransactionId: id, gracePeriod: body?.gracePeriodSeconds)
            case "expire": try await expire(originalTransactionId: id, billingRetryExhausted: body?.billingRetryExhausted ?? false)
            case "auto-renew": try await setAutoRenew(originalTransactionId: id, enabled: body?.enabled ?? true)
            case "change-product":
                guard let productId = body?.productId else { throw HTTPError(.badRequest, message: "productId is required") }
                return Self.json(
                    try await changeRenewalPreference(
                        originalTransactionId: id, to: productId, upgrade: body?.upgrade ?? false,
                        billingPlanType: body?.billingPlanType.map(RenewalBillingPlanType.init(rawValue:)), price: body?.price))
            case "redeem-offer":
                try await redeemOffer(
                    originalTransactionId: id, offerType: OfferType(rawValue: body?.offerType ?? 2), offerIdentifier: body?.offerIdentifier ?? "offer")
            case "expire-grace-period": try await expireGracePeriod(originalTransactionId: id)
            case "price-increase":
                guard let price = body?.price else { throw HTTPError(.badRequest, message: "price is required") }
                try await increasePrice(originalTransactionId: id, to: price, accepted: body?.accepted ?? false)
            case "migrate": try await advancedCommerce(originalTransactionId: id, .migration)
            case "change-price":
                guard let price = body?.price else { throw HTTPError(.badRequest, message: "price is required") }
                try await advancedCommerce(originalTransactionId: id, .priceChange(price))
            case "update-metadata": try await advancedCommerce(originalTransactionId: id, .metadataUpdate)
            case let action:
                throw HTTPError(
                    .notFound,
                    message: "no subscription action \(action): renew, fail-renewal, expire, auto-renew, change-product, redeem-offer, "
                        + "expire-grace-period, price-increase, migrate, change-price, update-metadata")
            }
            return Response(status: .ok)
        }
        scenario.post("transactions/:id/:action") { request, context in
            let id = try context.parameters.require("id")
            let body = (try? await request.decode(as: ChangeRequest.self, context: context))
            switch try context.parameters.require("action") {
            case "refund-request":
                try await requestRefund(transactionId: id, reason: body?.reason.map(ConsumptionRequestReason.init(rawValue:)) ?? .unintendedPurchase)
            case "refund": return Self.json(try await refund(transactionId: id, percentage: body?.percentage ?? 100_000))
            case "decline-refund": try await declineRefund(transactionId: id)
            case "reverse-refund": try await reverseRefund(transactionId: id)
            case let action: throw HTTPError(.notFound, message: "no transaction action \(action): refund-request, refund, decline-refund, reverse-refund")
            }
            return Response(status: .ok)
        }
        scenario.post("customers/:customer/rescind-consent") { request, context in
            let body = try await request.decode(as: ChangeRequest.self, context: context)
            guard let bundleId = body.bundleId else { throw HTTPError(.badRequest, message: "bundleId is required") }
            return Self.json(try await rescindConsent(customer: try context.parameters.require("customer"), bundleId: bundleId), status: .created)
        }
        scenario.post("apps/:bundleId/unreported-external-purchase-token") { _, context in
            Self.json(try await unreportedExternalPurchaseToken(bundleId: try context.parameters.require("bundleId")), status: .created)
        }
        scenario.post("apps/:bundleId/external-purchase-token") { request, context in
            let body = try await request.decode(as: ExternalPurchaseTokenRequest.self, context: context)
            let subtypes: [Subtype] = [.unreported, .created, .activeTokenReminder]
            guard let subtype = subtypes.first(where: { $0.rawValue == body.subtype }) else {
                throw ScenarioError.invalid(field: "subtype", reason: "must be UNREPORTED, CREATED or ACTIVE_TOKEN_REMINDER")
            }
            var token: ExternalPurchaseToken?
            if let id = body.externalPurchaseId {
                token = await self.store.externalPurchaseToken(id)
                guard token != nil else { throw ScenarioError.invalid(field: "externalPurchaseId", reason: "is no token the simulator made") }
            }
            return Self.json(
                try await externalPurchaseToken(
                    bundleId: try context.parameters.require("bundleId"), subtype: subtype, tokenType: body.tokenType, token: token),
                status: .created)
        }
        scenario.post("faults") { request, context in
            let body = try await request.decode(as: FaultRequest.self, context: context)
            let duration = Duration.milliseconds(body.milliseconds ?? 1000)
            let fault: SimulatorStore.Fault
            switch body.kind {
            case "rateLimited": fault = .rateLimited(retryAfter: duration)
            case "serverError": fault = .serverError
            case "slow": fault = .slow(duration)
            default: throw HTTPError(.badRequest, message: "kind must be rateLimited, serverError or slow")
            }
            await store.inject(fault, times: body.times ?? 1)
            return Response(status: .created)
        }
        scenario.get("notifications/:bundleId") { _, context in
            let sent = await store.sentNotifications(bundleId: try context.parameters.require("bundleId"))
            return Self.json(
                sent.map {
                    SentNotification(
                        notificationType: $0.payload.notificationType, subtype: $0.payload.subtype, notificationUUID: $0.payload.notificationUUID,
                        sendAttempts: $0.attempts)
                })
        }
    }

    struct SentNotification: Encodable {
        let notificationType: NotificationTypeV2?
        let subtype: Subtype?
        let notificationUUID: String?
        let sendAttempts: [SendAttemptItem]
    }
}
