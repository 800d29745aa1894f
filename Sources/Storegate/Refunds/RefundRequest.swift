import AppStoreServer
import Contract
import Foundation

/// Which of Apple's endpoints answers consumption requests.
public enum ConsumptionAPI: String, Sendable, Codable, CaseIterable {
    /// Send Consumption Information.
    case v2
    /// The deprecated Send Consumption Data.
    case v1
}
/// Apple's `CONSUMPTION_REQUEST` (a customer asked for a refund; Apple asks for consumption information
/// within 12 hours) and what Storegate did about it.
public struct RefundRequest: Sendable, Equatable {
    public enum Status: String, Sendable, CaseIterable {
        /// Waiting for facts or for the policy's time.
        case pending
        /// Consumption information was sent to Apple.
        case sent
        /// Not sent, for `statusReason`.
        case notSent = "not_sent"
        /// The deadline passed with nothing to send.
        case expired
    }

    /// The notification's `notificationUUID`.
    public let id: UUID
    public let appId: UUID
    public let environment: AppStoreEnvironment
    public let transactionId: String
    public let originalTransactionId: String
    public let productType: ProductType
    public let customer: UUID?
    public let reason: ConsumptionRequestReason?
    public let requestedAt: Date
    public let deadline: Date
    public let status: Status
    public let statusReason: String?
    public let apiVersion: ConsumptionAPI?
    /// Exactly what was sent to Apple, as JSON.
    public let sentBody: String?
    public let sentAt: Date?
    public let attempts: Int
    public let lastError: String?

    /// The 12 hours Apple gives to answer, from the notification's signed date.
    public static let answerWindow: TimeInterval = 12 * 3600

    public init(
        id: UUID, appId: UUID, environment: AppStoreEnvironment, transactionId: String, originalTransactionId: String, productType: ProductType,
        customer: UUID?,
        reason: ConsumptionRequestReason?, requestedAt: Date, deadline: Date, status: Status = .pending, statusReason: String? = nil,
        apiVersion: ConsumptionAPI? = nil, sentBody: String? = nil, sentAt: Date? = nil, attempts: Int = 0, lastError: String? = nil
    ) {
        self.id = id
        self.appId = appId
        self.environment = environment
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.productType = productType
        self.customer = customer
        self.reason = reason
        self.requestedAt = requestedAt
        self.deadline = deadline
        self.status = status
        self.statusReason = statusReason
        self.apiVersion = apiVersion
        self.sentBody = sentBody
        self.sentAt = sentAt
        self.attempts = attempts
        self.lastError = lastError
    }
}

/// The API shows its cases as the JSON Schema `enum`; any other value is refused.
extension ConsumptionAPI: JSONSchemaType {}

/// The API shows its cases as the JSON Schema `enum`; any other value is refused.
extension RefundRequest.Status: JSONSchemaType, Codable {}
