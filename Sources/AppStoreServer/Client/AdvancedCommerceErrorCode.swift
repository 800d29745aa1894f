/// Advanced Commerce API error codes Storegate acts on or names (Apple's error objects without the `Error`
/// suffix). Apple's endpoint pages name the objects; the numbers are from Apple's error-code index as other
/// libraries read it, and a code not listed here is kept as it comes (`APIErrorCode` is an open set).
extension APIErrorCode {
    public static let malformedPayload = APIErrorCode(rawValue: 4000173)
    public static let repeatedRequestReferenceId = APIErrorCode(rawValue: 4000097)
    public static let operationNotAllowed = APIErrorCode(rawValue: 4000135)
    public static let pendingRefund = APIErrorCode(rawValue: 4000181)
    public static let revokeOnInactiveSubscription = APIErrorCode(rawValue: 4000186)
    public static let subscriptionAlreadyMigrated = APIErrorCode(rawValue: 4000176)
    public static let priceChangeCannotBeIssuedWhenAlreadyCommunicated = APIErrorCode(rawValue: 4000205)
    public static let subscriptionDoesNotExist = APIErrorCode(rawValue: 4030008)
    public static let subscriptionNotEligible = APIErrorCode(rawValue: 4030010)
    public static let productNotOwned = APIErrorCode(rawValue: 4030013)
    public static let inactiveACASub = APIErrorCode(rawValue: 4030015)
    public static let alreadyRefunded = APIErrorCode(rawValue: 4030021)
    public static let transactionNotRefundable = APIErrorCode(rawValue: 4030024)
    public static let migrationNotAllowedWhenPriceIncreaseCommunicated = APIErrorCode(rawValue: 4030027)

    /// The Advanced Commerce codes this build knows.
    public static let advancedCommerce: [APIErrorCode] = [
        .malformedPayload, .repeatedRequestReferenceId, .operationNotAllowed, .pendingRefund, .revokeOnInactiveSubscription, .subscriptionAlreadyMigrated,
        .priceChangeCannotBeIssuedWhenAlreadyCommunicated, .subscriptionDoesNotExist, .subscriptionNotEligible, .productNotOwned, .inactiveACASub,
        .alreadyRefunded, .transactionNotRefundable, .migrationNotAllowedWhenPriceIncreaseCommunicated,
    ]
}
