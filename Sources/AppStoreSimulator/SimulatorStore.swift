import AppStoreServer
import Crypto
import Foundation

/// Everything the simulator knows: registered apps and keys, customers' transactions and renewal
/// info, consumption reports, notification history, injected faults and the requests it received.
public actor SimulatorStore {
    public struct App: Sendable {
        public let bundleId: String
        /// Absent for an app registered without one: Apple's Sandbox data carries none.
        public let appAppleId: Int64?
        public let environment: AppStoreEnvironment
        var keys: [String: (issuerId: String, publicKey: P256.Signing.PublicKey)] = [:]
    }

    /// A request as the simulator received it, for tests to assert on.
    public struct ReceivedRequest: Sendable {
        /// The environment the request's path named; nil for `/inApps/…` (the app's own).
        public let environment: AppStoreEnvironment?
        public let method: String
        public let path: String
        public let query: [(String, String)]
        public let contentType: String?
        public let body: Data
        public let bearerClaims: [String: String]
    }

    public enum Fault: Sendable {
        /// 429 with `Retry-After` this far in the future.
        case rateLimited(retryAfter: Duration)
        /// 500 with Apple's retryable internal error.
        case serverError
        /// Answer after this delay.
        case slow(Duration)
    }

    var apps: [String: App] = [:]
    var transactions: [String: JWSTransactionDecodedPayload] = [:]
    var transactionOrder: [String] = []
    var customerOf: [String: String] = [:]
    var appTransactions: [String: AppTransaction] = [:]
    var renewals: [String: JWSRenewalInfoDecodedPayload] = [:]
    var orders: [String: [String]] = [:]
    public internal(set) var consumptionReports: [String: Data] = [:]
    var notificationHistory: [(bundleId: String, payload: ResponseBodyV2DecodedPayload, signed: String, attempts: [SendAttemptItem])] = []
    var testNotifications: [String: String] = [:]
    var massExtensions: [String: MassExtendRenewalDateStatusResponse] = [:]
    var extensions: [String: [Date]] = [:]
    var notificationURLs: [String: String] = [:]
    /// While set, notifications are signed and kept in the history but not sent: a test delivers them
    /// itself, in an order of its choosing (`AppStoreSimulator.deliverHeld`).
    public private(set) var holdingDeliveries = false
    /// The held notifications' signed payloads, oldest first.
    public private(set) var held: [(bundleId: String, signed: String)] = []
    /// Each subscription's billing period, by original transaction ID.
    var periods: [String: TimeInterval] = [:]
    var appAccountTokens: [String: LowercaseUUID] = [:]
    /// Advanced Commerce requests answered, by `requestReferenceId`: the body and the answer.
    var advancedCommerceRequests: [String: (body: Data, answer: AdvancedCommerceAnswer)] = [:]
    /// Subscriptions migrated to the Advanced Commerce API.
    var migrated: Set<String> = []
    /// External purchase tokens announced, by `externalPurchaseId`.
    var externalPurchaseTokens: [String: ExternalPurchaseToken] = [:]
    /// Transactions the app's server finished (Finish Transaction).
    var finished: Set<String> = []
    /// Each app's Retention Messaging, by bundle ID.
    var retention: [String: RetentionMessaging] = [:]
    var faults: [Fault] = []
    public private(set) var received: [ReceivedRequest] = []
    var nextId: Int64 = 2_000_000_000_000_000

    public init() {}

    // MARK: Setup

    public func register(bundleId: String, appAppleId: Int64?, environment: AppStoreEnvironment = .sandbox) {
        if apps[bundleId] == nil { apps[bundleId] = App(bundleId: bundleId, appAppleId: appAppleId, environment: environment) }
    }

    /// Registers an In-App Purchase key: bearer tokens signed with it are accepted for `bundleId`.
    public func registerKey(bundleId: String, keyId: String, issuerId: String, publicKey: P256.Signing.PublicKey) {
        apps[bundleId]?.keys[keyId] = (issuerId.lowercased(), publicKey)
    }

    public func inject(_ fault: Fault, times: Int = 1) { faults.append(contentsOf: Array(repeating: fault, count: times)) }

    func takeFault() -> Fault? { faults.isEmpty ? nil : faults.removeFirst() }

    func record(_ request: ReceivedRequest) { received.append(request) }

    func app(_ bundleId: String) -> App? { apps[bundleId] }

    func newId() -> String {
        nextId += 1
        return String(nextId)
    }

    // MARK: Queries

    /// The transactions of the customer behind any of their ids, oldest first.
    func customerTransactions(bundleId: String, anyId: String) -> [JWSTransactionDecodedPayload]? {
        let customer: String?
        if let found = customerOf[anyId] {
            customer = found
        } else if let byAppTransaction = appTransactions.first(where: { $0.value.appTransactionId == anyId })?.key {
            customer = byAppTransaction
        } else {
            customer = nil
        }
        guard let customer else { return nil }
        return transactionOrder.compactMap { transactions[$0] }.filter { customerOf[$0.transactionId ?? ""] == customer && $0.bundleId == bundleId }
    }

    func transaction(bundleId: String, id: String) -> JWSTransactionDecodedPayload? {
        transactions[id].flatMap { $0.bundleId == bundleId ? $0 : nil }
    }

    func renewal(originalTransactionId: String) -> JWSRenewalInfoDecodedPayload? { renewals[originalTransactionId] }

    func keep(_ token: ExternalPurchaseToken) { token.externalPurchaseId.map { externalPurchaseTokens[$0] = token } }

    func externalPurchaseToken(_ id: String) -> ExternalPurchaseToken? { externalPurchaseTokens[id] }

    /// Finish Transaction: the transaction is marked finished; false when the app has no such transaction.
    func finish(bundleId: String, transactionId: String) -> Bool {
        guard transaction(bundleId: bundleId, id: transactionId) != nil else { return false }
        finished.insert(transactionId)
        return true
    }

    /// Whether the app's server said it finished the transaction (Finish Transaction).
    public func isFinished(transactionId: String) -> Bool { finished.contains(transactionId) }

    func appTransaction(bundleId: String, anyId: String) -> AppTransaction? {
        guard let customer = customerOf[anyId] ?? appTransactions.first(where: { $0.value.appTransactionId == anyId })?.key else { return nil }
        return appTransactions[customer].flatMap { $0.bundleId == bundleId ? $0 : nil }
    }

    func order(_ orderId: String) -> [String]? { orders[orderId] }

    func recordConsumption(transactionId: String, body: Data) { consumptionReports[transactionId] = body }

    func notifications(bundleId: String) -> [(payload: ResponseBodyV2DecodedPayload, signed: String, attempts: [SendAttemptItem])] {
        notificationHistory.filter { $0.bundleId == bundleId }.map { ($0.payload, $0.signed, $0.attempts) }
    }

    func addTestNotification(token: String, signed: String) { testNotifications[token] = signed }
    func testNotification(token: String) -> String? { testNotifications[token] }

    func setMassExtension(_ status: MassExtendRenewalDateStatusResponse, productId: String) {
        massExtensions[productId + "/" + (status.requestIdentifier ?? "")] = status
    }

    func massExtension(productId: String, requestIdentifier: String) -> MassExtendRenewalDateStatusResponse? {
        massExtensions[productId + "/" + requestIdentifier]
    }

    func update(_ transaction: JWSTransactionDecodedPayload) {
        guard let id = transaction.transactionId else { return }
        transactions[id] = transaction
    }

    func updateRenewal(_ renewal: JWSRenewalInfoDecodedPayload) {
        guard let id = renewal.originalTransactionId else { return }
        renewals[id] = renewal
    }

    /// Adds a notification to the history (the sender fills in send attempts).
    func appendNotification(bundleId: String, payload: ResponseBodyV2DecodedPayload, signed: String, attempts: [SendAttemptItem]) {
        notificationHistory.append((bundleId, payload, signed, attempts))
    }
}

extension SimulatorStore {
    /// Holds notifications back from now on (`true`), or sends them again as they are made.
    public func holdDeliveries(_ hold: Bool) { holdingDeliveries = hold }

    func hold(bundleId: String, signed: String) { held.append((bundleId, signed)) }

    func takeHeld(_ signed: String) -> String? {
        guard let index = held.firstIndex(where: { $0.signed == signed }) else { return nil }
        return held.remove(at: index).bundleId
    }

    /// Drops faults not yet taken.
    public func clearFaults() { faults.removeAll() }
    /// Faults not yet taken.
    public var pendingFaults: Int { faults.count }
}

extension SimulatorStore {
    /// Where notifications for `bundleId` are sent (App Store Connect's "Production/Sandbox Server URL").
    public func setNotificationURL(bundleId: String, url: String?) { notificationURLs[bundleId] = url }
    func notificationURL(bundleId: String) -> String? { notificationURLs[bundleId] }

    /// Records a send attempt for the notification with this signed payload.
    func recordAttempt(signed: String, attempt: SendAttemptItem) {
        guard let index = notificationHistory.firstIndex(where: { $0.signed == signed }) else { return }
        notificationHistory[index].attempts.append(attempt)
    }

    /// The notifications sent for an app, oldest first, with their attempts.
    public func sentNotifications(bundleId: String) -> [(payload: ResponseBodyV2DecodedPayload, attempts: [SendAttemptItem])] {
        notificationHistory.filter { $0.bundleId == bundleId }.map { ($0.payload, $0.attempts) }
    }
}
