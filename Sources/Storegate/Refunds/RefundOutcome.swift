import AppStoreServer
import Contract
import Foundation

/// Apple's decision on a refund request, from a `REFUND`, `REFUND_DECLINED` or `REFUND_REVERSED` notification,
/// or a refund found in Apple's refund history that no notification brought.
public struct RefundOutcome: Sendable, Equatable {
    /// Where Storegate learnt of the decision.
    public enum Source: String, Sendable, CaseIterable {
        case notification
        /// Get Refund History (`refunds.history`): the notification was missed.
        case refundHistory
    }

    /// The notification's; nil when found in refund history.
    public let notificationUUID: UUID?
    public let appId: UUID
    public let environment: AppStoreEnvironment
    /// The notification type: `REFUND`, `REFUND_DECLINED` or `REFUND_REVERSED`.
    public let outcome: NotificationTypeV2
    public let transactionId: String
    public let originalTransactionId: String
    public let productId: String
    public let productType: ProductType
    public let quantity: Int
    public let familyShared: Bool
    /// Apple's `revocationPercentage`, in milliunits (75000 = 75%).
    public let refundPercentage: Int?
    public let revocationType: RevocationType?
    public let revocationReason: RevocationReason?
    /// Apple's `revocationDate` of the transaction: with the transaction, what makes a refund one refund.
    public let revocationDate: Date?
    public let source: Source
    public let customer: UUID?
    public let signedDate: Date?
    public let recordedAt: Date?

    /// REVOKE is Family Sharing's: a family member's access to a shared purchase ended (the purchaser stopped
    /// sharing it, or was refunded).
    public static let outcomes: [NotificationTypeV2] = [.refund, .refundDeclined, .refundReversed, .revoke]

    public init(
        notificationUUID: UUID?, appId: UUID, environment: AppStoreEnvironment, outcome: NotificationTypeV2, transactionId: String,
        originalTransactionId: String,
        productId: String, productType: ProductType, quantity: Int, familyShared: Bool, refundPercentage: Int?, revocationType: RevocationType?,
        revocationReason: RevocationReason?, revocationDate: Date?, source: Source = .notification, customer: UUID?, signedDate: Date?,
        recordedAt: Date? = nil
    ) {
        self.notificationUUID = notificationUUID
        self.appId = appId
        self.environment = environment
        self.outcome = outcome
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.productType = productType
        self.quantity = quantity
        self.familyShared = familyShared
        self.refundPercentage = refundPercentage
        self.revocationType = revocationType
        self.revocationReason = revocationReason
        self.revocationDate = revocationDate
        self.source = source
        self.customer = customer
        self.signedDate = signedDate
        self.recordedAt = recordedAt
    }

    /// What the app should take back for this decision.
    public var revoke: RevokeInstruction { RevokeInstruction(self) }
}
/// What to take back after Apple's decision: the refunded fraction of a consumable's quantity (rounded
/// down, in the customer's favour), access for anything else, nothing for a decline, and restoration for
/// a reversal. `familyMembers` when Apple revoked a family-shared purchase (`FAMILY_REVOKE`).
@RPCObject public struct RevokeInstruction: Sendable, Equatable {
    public enum Action: String, Sendable, CaseIterable {
        case revokeQuantity, revokeAccess, restore, none
    }

    public let action: Action
    /// For a consumable: how many of the purchased quantity to take back.
    @Field(.minimum(0)) public let quantity: Int?
    /// Also revoke for the family members the purchase was shared with.
    public let familyMembers: Bool
    public let summary: String

    public init(_ o: RefundOutcome) {
        switch o.outcome {
        case .refundDeclined:
            self.init(.none, familyMembers: false, summary: "Apple declined the refund; change nothing.")
        case .refundReversed:
            self.init(.restore, familyMembers: false, summary: "Apple reversed the refund; restore what was revoked for it.")
        default:
            let family = o.revocationType == .familyRevoke || o.outcome == .revoke
            if o.productType == .consumable {
                let percentage = o.refundPercentage ?? 100_000
                let quantity = o.quantity * percentage / 100_000
                self.init(
                    .revokeQuantity, quantity: quantity, familyMembers: family,
                    summary: "Take back \(quantity) of \(o.quantity) (\(Double(percentage) / 1000)% refunded).")
            } else if family {
                self.init(
                    .revokeAccess, familyMembers: true,
                    summary: "The purchaser stopped sharing or was refunded: revoke access for the family members it was shared with.")
            } else {
                self.init(.revokeAccess, familyMembers: false, summary: "Revoke access to \(o.productId).")
            }
        }
    }

    private init(_ action: Action, quantity: Int? = nil, familyMembers: Bool, summary: String) {
        self.action = action
        self.quantity = quantity
        self.familyMembers = familyMembers
        self.summary = summary
    }
}

/// The API shows its cases as the JSON Schema `enum`; any other value is refused.
extension RevokeInstruction.Action: JSONSchemaType, Encodable {}
