/// Advanced Commerce API error codes Storegate acts on or names (Apple's error objects without the `Error`
/// suffix). Apple's endpoint pages name the objects; the numbers are from Apple's error-code index as other
/// libraries read it, and a code not listed here is kept as it comes (`APIErrorCode` is an open set).
extension APIErrorCode {
    public static let malformedPayload = APIErrorCode(rawValue: 4_000_173)
    public static let repeatedRequestReferenceId = APIErrorCode(rawValue: 4_000_097)
    public static let operationNotAllowed = APIErrorCode(rawValue: 4_000_135)
    public static let pendingRefund = APIErrorCode(rawValue: 4_000_181)
    public static let revokeOnInactiveSubscription = APIErrorCode(rawValue: 4_000_186)
    public static let subscriptionAlreadyMigrated = APIErrorCode(rawValue: 4_000_176)
    public static let priceChangeCannotBeIssuedWhenAlreadyCommunicated = APIErrorCode(rawValue: 4_000_205)
    public static let subscriptionDoesNotExist = APIErrorCode(rawValue: 4_030_008)
    public static let subscriptionNotEligible = APIErrorCode(rawValue: 4_030_010)
    public static let productNotOwned = APIErrorCode(rawValue: 4_030_013)
    public static let inactiveACASub = APIErrorCode(rawValue: 4_030_015)
    public static let alreadyRefunded = APIErrorCode(rawValue: 4_030_021)
    public static let transactionNotRefundable = APIErrorCode(rawValue: 4_030_024)
    public static let migrationNotAllowedWhenPriceIncreaseCommunicated = APIErrorCode(rawValue: 4_030_027)

    /// The Advanced Commerce codes this build knows.
    public static let advancedCommerce: [APIErrorCode] = [
        .malformedPayload, .repeatedRequestReferenceId, .operationNotAllowed, .pendingRefund, .revokeOnInactiveSubscription, .subscriptionAlreadyMigrated,
        .priceChangeCannotBeIssuedWhenAlreadyCommunicated, .subscriptionDoesNotExist, .subscriptionNotEligible, .productNotOwned, .inactiveACASub,
        .alreadyRefunded, .transactionNotRefundable, .migrationNotAllowedWhenPriceIncreaseCommunicated,
    ]
}
