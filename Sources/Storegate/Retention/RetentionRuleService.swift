import AppStoreServer
import Foundation
import Logging
import Synchronization

/// An app's retention rules, and the answers they give to Apple's Get Retention Message requests
/// (`POST /apple/retention/<token>`): Apple's signed request verified as the app's, the subscription it
/// names found (through the holdings cache), the first rule that holds chosen, a promotional offer signed
/// fresh with the app's key; once the answer has been sent, it is audited and evented (`retention.answered`)
/// as Apple received it.
///
/// Nothing that fails on Storegate's side reaches Apple as an error: no rule, a subscription Storegate does
/// not know, a suspended tenant, a database away or an answer not ready `Settings.deadline` after the request
/// arrived are answered `{}`, and Apple shows the app's default message. A cut answer is recorded as cut,
/// with the step it was at. A request Storegate cannot trust is refused (403):
/// another chain, another app or environment, or a `signedDate` outside the settings' window (a request
/// replayed later; Apple signs each request as it sends it).
public struct RetentionRuleService: Sendable {
    /// How requests are judged: how far a request's `signedDate` may lie from now (`past` before, 5 minutes by
    /// default for clocks apart and a slow network; `future` after, 1 minute), and how long after the
    /// request's arrival an answer may be sent: past it Storegate sends `{}` instead (400 ms: Apple allows
    /// 700, its performance test 500; the rest is for the network and a busy machine).
    public struct Settings: Sendable {
        public var past: Duration
        public var future: Duration
        public var deadline: Duration

        public init(past: Duration = .seconds(300), future: Duration = .seconds(60), deadline: Duration = .milliseconds(400)) {
            self.past = past
            self.future = future
            self.deadline = deadline
        }
    }

    let persistence: any Persistence
    let verification: Verification
    let notificationURLs: NotificationURLTokens
    let subscriptions: SubscriptionService
    let offers: OfferService
    /// Rules by app, kept coherent as apps are (`CacheCoherence`): a change is used from the next request.
    let rules: ExpiringCache<UUID, AppRules>
    let events: GroupCommit<UUID, (Tenant, NewEvent), Void>
    let audits: AuditBatcher
    let logger: Logger
    let settings: Settings
    let now: @Sendable () -> Date

    init(
        persistence: any Persistence, verification: Verification, notificationURLs: NotificationURLTokens, subscriptions: SubscriptionService,
        offers: OfferService,
        cacheTTL: Duration, coherence: CacheCoherence, logger: Logger, settings: Settings = Settings(),
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.persistence = persistence
        self.verification = verification
        self.notificationURLs = notificationURLs
        self.subscriptions = subscriptions
        self.offers = offers
        self.rules = ExpiringCache(ttl: cacheTTL, coherence: coherence) { _, rules in rules.tenantId }
        self.events = GroupCommit { _, items in
            guard let tenant = items.first?.0 else { return }
            try await persistence.inTenant(tenant, .read) { try await $0.events.append(items.map(\.1)) }
        }
        self.audits = AuditBatcher(persistence: persistence)
        self.logger = logger
        self.settings = settings
        self.now = now
    }

    struct AppRules: Sendable {
        let tenantId: UUID
        let rules: [RetentionRule]
    }

    // MARK: Rules

    /// Replaces the app's rules (an empty list removes them); audited.
    public func setRules(tenant: Tenant, bundleId: String, rules: [RetentionRule], actor: Actor) async throws -> [RetentionRule] {
        let rules = try rules.validated()
        let app = try await persistence.app(tenant, bundleId: bundleId)
        try await persistence.inTenant(tenant) { unit in
            guard try await unit.apps.setRetentionRules(appId: app.id, rules.isEmpty ? nil : rules) else { throw StoregateError.notFound(field: "bundleId") }
            try await unit.audit(actor, "retention.rules.set", ["bundleId": app.bundleId, "rules": String(rules.count)])
        }
        // Other processes hear of it from the change feed; this one answers with the new rules at once.
        self.rules.coherence.changed(tenant: tenant.id)
        return rules
    }

    /// The app's rules, in the order they are tried.
    public func rules(tenant: Tenant, bundleId: String) async throws -> [RetentionRule] {
        let app = try await persistence.app(tenant, bundleId: bundleId)
        return try await persistence.inTenant(tenant, .read) { try await $0.apps.retentionRules(appId: app.id) } ?? []
    }

    // MARK: Answers

    /// What to answer Apple.
    public enum Outcome: Sendable {
        /// 200 with the reply's body (`{}` when nothing is answered); `sent(_:)` records it once it was sent.
        case answered(RetentionReply)
        /// No app has this token: 404.
        case unknownToken
        /// The body is not `{"signedPayload": …}`: 400.
        case malformedBody
        /// Not a request Storegate trusts: 403.
        case refused(code: String, reason: String)
    }

    /// Why nothing was answered, as `retention.answered` reports it.
    enum Silence: String, Sendable {
        case noRules, noRuleHeld, unknownSubscription, tenantSuspended
        /// The answer was not ready by the deadline: `{}` was sent instead (the event's `cut` says why).
        case cut
    }

    /// The steps of an answer, as a cut one reports where it was.
    enum Step: String, Sendable {
        case findingTheApp = "finding the app"
        case verifying = "verifying Apple's signature"
        case choosing = "choosing a rule"
        case
            signing = "signing the offer"
    }

    /// An answer's progress: what a cut answer can still record.
    final class Progress: Sendable {
        struct State {
            var step = Step.findingTheApp
            var target: NotificationURLTarget?
            var request: DecodedRealtimeRequestBody?
            var choice: Choice?
        }
        let state = Mutex(State())
        func update(_ change: (inout State) -> Void) { state.withLock { change(&$0) } }
        var current: State { state.withLock { $0 } }
    }

    /// Answers Apple's request that arrived at `arrival`: whatever is not ready `settings.deadline` after it
    /// is cut, and `{}` is answered instead.
    public func answer(token: String, body: Data, arrival: ContinuousClock.Instant = .now) async -> Outcome {
        guard token.utf8.count == 43, token.utf8.allSatisfy({ $0.isBase64URL }) else { return .unknownToken }
        guard let signed = (try? JSONDecoder().decode(RealtimeRequestBody.self, from: body))?.signedPayload else { return .malformedBody }
        let progress = Progress()
        let deadline = arrival + settings.deadline
        do {
            return try await race(until: deadline) { try await answer(token: token, signed: signed, progress: progress) }
        } catch {
            let state = progress.current
            let cut = error is DeadlinePassed
            let why =
                cut
                ? "the answer was not ready \(Int((settings.deadline.seconds * 1000).rounded())) ms after the request arrived: Storegate was \(state.step.rawValue)"
                : "it failed while \(state.step.rawValue): \(error)"
            logger.warning(
                cut ? "retention request answered with nothing: cut at its deadline" : "retention request answered with nothing: it failed",
                metadata: ["request": "\(state.request?.requestIdentifier.description ?? "unverified")", "step": "\(state.step.rawValue)", "why": "\(why)"])
            // A request not verified yet is not written to any tenant's feed: anyone can send one.
            guard let target = state.target, let request = state.request else { return .answered(RetentionReply()) }
            var choice = state.choice ?? Choice(outcome: .silence(.cut))
            choice.answer = nil
            return .answered(RetentionReply(service: self, request: request, target: target, choice: choice, cut: cut ? why : nil))
        }
    }

    /// The answer's work up to the reply, each step noted in `progress`.
    func answer(token: String, signed: String, progress: Progress) async throws -> Outcome {
        guard
            let target = try await notificationURLs.value(
                for: token, loadIfFound: { try await persistence.control(.read) { try await $0.notificationURL(token: token) }.map(NotificationURLTarget.init) }
            )
        else { return .unknownToken }
        progress.update {
            $0.target = target
            $0.step = .verifying
        }
        let request: DecodedRealtimeRequestBody
        switch await verification.verifier(app: target.app, environment: target.notificationURL.environment).verify(signed, as: .realtimeRequest) {
        case .invalid(let failure) where failure.isRetryable:
            logger.warning("retention request not answered: it could not be verified now", metadata: ["reason": "\(failure)"])
            return .answered(RetentionReply())
        case .invalid(let failure):
            return .refused(code: failure.code, reason: failure.description)
        case .valid(let verified):
            guard let decoded = try? verified.decode(DecodedRealtimeRequestBody.self) else {
                return .refused(code: "malformed", reason: "the payload is not a realtime request")
            }
            request = decoded
        }
        let age = now().timeIntervalSince(request.signedDate.date)
        guard age <= settings.past.seconds, -age <= settings.future.seconds else {
            return .refused(
                code: "signedDate",
                reason: "signedDate \(request.signedDate) is outside the accepted window (\(settings.past) before now to \(settings.future) after)")
        }
        progress.update {
            $0.request = request
            $0.step = .choosing
        }
        return .answered(try await answer(request, for: target, progress: progress))
    }

    /// The answer to a verified request, to be recorded once it is sent.
    func answer(_ request: DecodedRealtimeRequestBody, for target: NotificationURLTarget, progress: Progress) async throws -> RetentionReply {
        let (tenant, app) = (target.tenant, target.app)
        var choice = try await choose(request, tenant: tenant, app: app)
        progress.update {
            $0.choice = choice
            $0.step = .signing
        }
        var body = RealtimeResponseBody()
        if case .rule(let rule, let subscription, let facts) = choice.outcome {
            body = try await make(rule.answer, request: request, tenant: tenant, app: app, subscription: subscription, facts: facts)
            choice.answer = Self.reported(rule.answer, request: request)
        }
        return RetentionReply(body: body, service: self, request: request, target: target, choice: choice)
    }

    struct Choice {
        enum Outcome {
            case rule(RetentionRule, Subscription, RetentionFacts?)
            case silence(Silence)
        }
        var outcome: Outcome
        var customer: UUID?
        /// The answer as events report it: the rule's, its offer's product resolved, without signatures.
        var answer: RetentionAnswer?
    }

    /// The first rule that holds for the request's subscription.
    func choose(_ request: DecodedRealtimeRequestBody, tenant: Tenant, app: App) async throws -> Choice {
        guard tenant.status == .active else { return Choice(outcome: .silence(.tenantSuspended)) }
        let rules = try await self.rules.value(for: app.id) {
            AppRules(tenantId: tenant.id, rules: try await persistence.inTenant(tenant, .read) { try await $0.apps.retentionRules(appId: app.id) } ?? [])
        }.rules
        guard !rules.isEmpty else { return Choice(outcome: .silence(.noRules)) }
        let (owner, owned) = try await subscriptions.owned(tenant: tenant, app: app, transactionId: request.originalTransactionId)
        guard let subscription = owned.first(where: { $0.originalTransactionId == request.originalTransactionId && $0.environment == request.environment })
        else { return Choice(outcome: .silence(.unknownSubscription), customer: owner) }
        var facts: RetentionFacts?
        let now = now()
        let state = SubscriptionState(subscription, now: now)
        for rule in rules {
            let conditions = rule.when ?? RetentionConditions()
            if conditions.needsFacts || (rule.answer.promotionalOffer?.isV1 == true), facts == nil {
                facts = try await persistence.inTenant(tenant, .read) {
                    try await $0.subscriptions.retentionFacts(
                        appId: app.id, environment: subscription.environment, originalTransactionId: subscription.originalTransactionId, customer: owner)
                }
            }
            if conditions.hold(request: request, subscription: state, facts: facts, now: now) {
                return Choice(outcome: .rule(rule, subscription, facts), customer: owner)
            }
        }
        return Choice(outcome: .silence(.noRuleHeld), customer: owner)
    }

    /// Apple's answer for a rule's: a promotional offer is signed now, for the subscription's customer.
    func make(
        _ answer: RetentionAnswer, request: DecodedRealtimeRequestBody, tenant: Tenant, app: App, subscription: Subscription, facts: RetentionFacts?
    ) async throws -> RealtimeResponseBody {
        func uuid(_ value: String?) -> LowercaseUUID? { value.flatMap(LowercaseUUID.init(uuidString:)) }
        if let message = answer.message { return RealtimeResponseBody(message: Message(messageIdentifier: uuid(message.messageIdentifier))) }
        if let alternate = answer.alternateProduct {
            return RealtimeResponseBody(
                alternateProduct: AlternateProduct(
                    messageIdentifier: uuid(alternate.messageIdentifier), productId: alternate.productId,
                    billingPlanType: alternate.billingPlanType.map(BillingPlanType.init(rawValue:))))
        }
        guard let offer = answer.promotionalOffer else { return RealtimeResponseBody() }
        let productId = offer.productId ?? request.productId
        let (_, signer) = try await offers.signer(tenant: tenant, bundleId: app.bundleId, keyId: nil)
        var promotional = PromotionalOffer(messageIdentifier: uuid(offer.messageIdentifier))
        if offer.isV1 {
            let token = facts?.appAccountToken
            let signature = try signer.promotionalOffer(productId: productId, offerId: offer.offerIdentifier, appAccountToken: token)
            promotional.promotionalOfferSignatureV1 = PromotionalOfferSignatureV1(
                encodedSignature: signature.signature, productId: productId, nonce: LowercaseUUID(uuidString: signature.nonce)!,
                timestamp: signature.timestamp, keyId: signature.keyIdentifier, offerIdentifier: offer.offerIdentifier,
                appAccountToken: token.map(LowercaseUUID.init))
        } else {
            promotional.promotionalOfferSignatureV2 = try signer.promotionalOfferJWS(
                productId: productId, offerIdentifier: offer.offerIdentifier, transactionId: subscription.originalTransactionId)
        }
        return RealtimeResponseBody(promotionalOffer: promotional)
    }

    /// The rule's answer with the offer's product resolved: what events and the audit log say was answered.
    static func reported(_ answer: RetentionAnswer, request: DecodedRealtimeRequestBody) -> RetentionAnswer {
        var answer = answer
        if var offer = answer.promotionalOffer {
            offer.productId = offer.productId ?? request.productId
            offer.signatureVersion = offer.signatureVersion ?? "V2"
            answer.promotionalOffer = offer
        }
        return answer
    }

    /// `retention.answered` in the tenant's feed and an audit entry, written together (each group-committed):
    /// the choice as sent, or, for a cut answer, the choice made so far and why it was cut.
    func record(_ choice: Choice, request: DecodedRealtimeRequestBody, target: NotificationURLTarget, cut: String?) async throws {
        var rule: String?
        var silence: Silence? = cut == nil ? nil : .cut
        switch choice.outcome {
        case .rule(let chosen, _, _): rule = chosen.name
        case .silence(let reason): silence = silence ?? reason
        }
        let event = try NewEvent(
            .retentionAnswered, appId: target.app.id, environment: request.environment, customer: choice.customer,
            data: Events.RetentionAnswered(
                requestIdentifier: request.requestIdentifier.description, originalTransactionId: request.originalTransactionId, productId: request.productId,
                userLocale: request.userLocale, signedDate: request.signedDate.date, rule: rule, answer: choice.answer, unanswered: silence?.rawValue,
                cut: cut))
        var detail = [
            "bundleId": target.app.bundleId, "environment": request.environment.rawValue, "requestIdentifier": request.requestIdentifier.description,
        ]
        detail["rule"] = rule
        detail["unanswered"] = silence?.rawValue
        detail["cut"] = cut
        detail["offerIdentifier"] = choice.answer?.promotionalOffer?.offerIdentifier
        let audit = AuditBatcher.Entry(actor: "apple:retention", tenantId: target.tenant.id, action: "retention.answered", detail: detail)
        async let evented: Void = events.record((target.tenant, event), key: target.tenant.id)
        try await audits.record(audit)
        try await evented
    }
}

extension RetentionConditions {
    /// Whether every condition given holds; `facts` is there whenever one needs it.
    func hold(request: DecodedRealtimeRequestBody, subscription: SubscriptionState, facts: RetentionFacts?, now: Date) -> Bool {
        if let productIds, !productIds.contains(request.productId) { return false }
        if let locales {
            let locale = [RetentionRule].normalized(request.userLocale).lowercased()
            guard
                locales.contains(where: { wanted in
                    let wanted = [RetentionRule].normalized(wanted).lowercased()
                    return locale == wanted || locale.hasPrefix(wanted + "-")
                })
            else { return false }
        }
        if let billingRetry, billingRetry != [.billingRetry, .billingGracePeriod].contains(subscription.status) { return false }
        let stored = subscription.subscription
        if let billingPlanType, billingPlanType != (stored.billingPlanType ?? .billedUpfront).rawValue { return false }
        let commitment = stored.billingPlanType == .monthly ? stored.commitment : nil
        if let commitmentRenews {
            guard commitment != nil, let renews = stored.renewal?.commitment?.autoRenewStatus, renews == commitmentRenews else { return false }
        }
        if let maxCommitmentMonthsLeft {
            guard let period = commitment?.billingPeriodNumber, let total = commitment?.totalBillingPeriods, Int(total - period) <= maxCommitmentMonthsLeft
            else { return false }
        }
        guard needsFacts else { return true }
        guard let facts else { return false }
        if minTenureDays != nil || maxTenureDays != nil {
            guard let first = facts.firstPurchaseDate ?? subscription.subscription.purchaseDate else { return false }
            let days = Int(now.timeIntervalSince(first) / 86_400)
            if let minTenureDays, days < minTenureDays { return false }
            if let maxTenureDays, days > maxTenureDays { return false }
        }
        // Renewed with one, or one accepted for the next renewal (OFFER_REDEEMED).
        if let offerRedeemed {
            let redeemed = facts.promotionalOffersRedeemed > 0 || stored.offerType == .promotionalOffer || stored.renewal?.offerType == .promotionalOffer
            if offerRedeemed != redeemed { return false }
        }
        if let retentionOfferRedeemed {
            let redeemed = facts.retentionOffersRedeemed > 0 || stored.offerType == .retentionOffer || stored.renewal?.offerType == .retentionOffer
            if retentionOfferRedeemed != redeemed { return false }
        }
        if let refunded, refunded != (facts.refunds > 0) { return false }
        if let consumptionRequested, consumptionRequested != (facts.consumptionRequests > 0) { return false }
        return true
    }
}
