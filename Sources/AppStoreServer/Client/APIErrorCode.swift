/// One of Apple's App Store Server API error codes. An open set: a code this build does not know is kept.
public struct APIErrorCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    public static let generalBadRequest = APIErrorCode(rawValue: 4000000)
    public static let invalidAppIdentifier = APIErrorCode(rawValue: 4000002)
    public static let invalidRequestRevision = APIErrorCode(rawValue: 4000005)
    public static let invalidTransactionId = APIErrorCode(rawValue: 4000006)
    public static let invalidOriginalTransactionId = APIErrorCode(rawValue: 4000008)
    public static let invalidExtendByDays = APIErrorCode(rawValue: 4000009)
    public static let invalidExtendReasonCode = APIErrorCode(rawValue: 4000010)
    public static let invalidRequestIdentifier = APIErrorCode(rawValue: 4000011)
    public static let startDateTooFarInPast = APIErrorCode(rawValue: 4000012)
    public static let startDateAfterEndDate = APIErrorCode(rawValue: 4000013)
    public static let invalidPaginationToken = APIErrorCode(rawValue: 4000014)
    public static let invalidStartDate = APIErrorCode(rawValue: 4000015)
    public static let invalidEndDate = APIErrorCode(rawValue: 4000016)
    public static let paginationTokenExpired = APIErrorCode(rawValue: 4000017)
    public static let invalidNotificationType = APIErrorCode(rawValue: 4000018)
    public static let multipleFiltersSupplied = APIErrorCode(rawValue: 4000019)
    public static let invalidTestNotificationToken = APIErrorCode(rawValue: 4000020)
    public static let invalidSort = APIErrorCode(rawValue: 4000021)
    public static let invalidProductType = APIErrorCode(rawValue: 4000022)
    public static let invalidProductId = APIErrorCode(rawValue: 4000023)
    public static let invalidSubscriptionGroupIdentifier = APIErrorCode(rawValue: 4000024)
    public static let invalidExcludeRevoked = APIErrorCode(rawValue: 4000025)
    public static let invalidInAppOwnershipType = APIErrorCode(rawValue: 4000026)
    public static let invalidEmptyStorefrontCountryCodeList = APIErrorCode(rawValue: 4000027)
    public static let invalidStorefrontCountryCode = APIErrorCode(rawValue: 4000028)
    public static let invalidRevoked = APIErrorCode(rawValue: 4000030)
    public static let invalidStatus = APIErrorCode(rawValue: 4000031)
    public static let invalidAccountTenure = APIErrorCode(rawValue: 4000032)
    public static let invalidAppAccountToken = APIErrorCode(rawValue: 4000033)
    public static let invalidConsumptionStatus = APIErrorCode(rawValue: 4000034)
    public static let invalidCustomerConsented = APIErrorCode(rawValue: 4000035)
    public static let invalidDeliveryStatus = APIErrorCode(rawValue: 4000036)
    public static let invalidLifetimeDollarsPurchased = APIErrorCode(rawValue: 4000037)
    public static let invalidLifetimeDollarsRefunded = APIErrorCode(rawValue: 4000038)
    public static let invalidPlatform = APIErrorCode(rawValue: 4000039)
    public static let invalidPlayTime = APIErrorCode(rawValue: 4000040)
    public static let invalidSampleContentProvided = APIErrorCode(rawValue: 4000041)
    public static let invalidUserStatus = APIErrorCode(rawValue: 4000042)
    public static let invalidTransactionNotConsumable = APIErrorCode(rawValue: 4000043)
    public static let invalidTransactionTypeNotSupported = APIErrorCode(rawValue: 4000047)
    public static let appTransactionIdNotSupported = APIErrorCode(rawValue: 4000048)
    public static let invalidImage = APIErrorCode(rawValue: 4000161)
    public static let headerTooLong = APIErrorCode(rawValue: 4000162)
    public static let bodyTooLong = APIErrorCode(rawValue: 4000163)
    public static let invalidLocale = APIErrorCode(rawValue: 4000164)
    public static let altTextTooLong = APIErrorCode(rawValue: 4000175)
    public static let invalidAppAccountTokenUUID = APIErrorCode(rawValue: 4000183)
    public static let familyTransactionNotSupported = APIErrorCode(rawValue: 4000185)
    public static let transactionIdNotOriginalTransactionId = APIErrorCode(rawValue: 4000187)
    public static let invalidPerformanceTestRequest = APIErrorCode(rawValue: 4000211)
    public static let invalidRequestId = APIErrorCode(rawValue: 4000212)
    public static let existingPerformanceTestRun = APIErrorCode(rawValue: 4000213)
    public static let badRequestRealtimeUrl = APIErrorCode(rawValue: 4000215)
    public static let badRequestImageSize = APIErrorCode(rawValue: 4000216)
    public static let badRequestTooManyBulletPoints = APIErrorCode(rawValue: 4000218)
    public static let badRequestBulletPointTextTooLong = APIErrorCode(rawValue: 4000219)
    public static let badRequestAboveImageRequiresAnImage = APIErrorCode(rawValue: 4000224)
    public static let subscriptionExtensionIneligible = APIErrorCode(rawValue: 4030004)
    public static let subscriptionMaxExtension = APIErrorCode(rawValue: 4030005)
    public static let familySharedSubscriptionExtensionIneligible = APIErrorCode(rawValue: 4030007)
    public static let maximumNumberOfImagesReached = APIErrorCode(rawValue: 4030014)
    public static let maximumNumberOfMessagesReached = APIErrorCode(rawValue: 4030016)
    public static let messageNotApproved = APIErrorCode(rawValue: 4030017)
    public static let imageNotApproved = APIErrorCode(rawValue: 4030018)
    public static let imageInUse = APIErrorCode(rawValue: 4030019)
    public static let forbiddenNoPassingTest = APIErrorCode(rawValue: 4030026)
    public static let accountNotFound = APIErrorCode(rawValue: 4040001)
    public static let accountNotFoundRetryable = APIErrorCode(rawValue: 4040002)
    public static let appNotFound = APIErrorCode(rawValue: 4040003)
    public static let appNotFoundRetryable = APIErrorCode(rawValue: 4040004)
    public static let originalTransactionIdNotFound = APIErrorCode(rawValue: 4040005)
    public static let originalTransactionIdNotFoundRetryable = APIErrorCode(rawValue: 4040006)
    public static let serverNotificationUrlNotFound = APIErrorCode(rawValue: 4040007)
    public static let testNotificationNotFound = APIErrorCode(rawValue: 4040008)
    public static let statusRequestNotFound = APIErrorCode(rawValue: 4040009)
    public static let transactionIdNotFound = APIErrorCode(rawValue: 4040010)
    public static let imageNotFound = APIErrorCode(rawValue: 4040014)
    public static let messageNotFound = APIErrorCode(rawValue: 4040015)
    public static let performanceTestRunNotFound = APIErrorCode(rawValue: 4040018)
    public static let appTransactionDoesNotExist = APIErrorCode(rawValue: 4040019)
    public static let defaultMessageNotFound = APIErrorCode(rawValue: 4040020)
    public static let realtimeUrlNotFound = APIErrorCode(rawValue: 4040021)
    public static let imageAlreadyExists = APIErrorCode(rawValue: 4090000)
    public static let messageAlreadyExists = APIErrorCode(rawValue: 4090001)
    public static let rateLimitExceeded = APIErrorCode(rawValue: 4290000)
    public static let generalInternal = APIErrorCode(rawValue: 5000000)
    public static let generalInternalRetryable = APIErrorCode(rawValue: 5000001)

    /// Every code this build knows.
    public static let known: [APIErrorCode] = [
        .generalBadRequest, .invalidAppIdentifier, .invalidRequestRevision, .invalidTransactionId, .invalidOriginalTransactionId, .invalidExtendByDays,
        .invalidExtendReasonCode, .invalidRequestIdentifier, .startDateTooFarInPast, .startDateAfterEndDate, .invalidPaginationToken, .invalidStartDate,
        .invalidEndDate, .paginationTokenExpired, .invalidNotificationType, .multipleFiltersSupplied, .invalidTestNotificationToken, .invalidSort,
        .invalidProductType, .invalidProductId, .invalidSubscriptionGroupIdentifier, .invalidExcludeRevoked, .invalidInAppOwnershipType,
        .invalidEmptyStorefrontCountryCodeList, .invalidStorefrontCountryCode, .invalidRevoked, .invalidStatus, .invalidAccountTenure, .invalidAppAccountToken,
        .invalidConsumptionStatus, .invalidCustomerConsented, .invalidDeliveryStatus, .invalidLifetimeDollarsPurchased, .invalidLifetimeDollarsRefunded,
        .invalidPlatform, .invalidPlayTime, .invalidSampleContentProvided, .invalidUserStatus, .invalidTransactionNotConsumable,
        .invalidTransactionTypeNotSupported, .appTransactionIdNotSupported, .invalidImage, .headerTooLong, .bodyTooLong, .invalidLocale, .altTextTooLong,
        .invalidAppAccountTokenUUID, .familyTransactionNotSupported, .transactionIdNotOriginalTransactionId, .invalidPerformanceTestRequest, .invalidRequestId,
        .existingPerformanceTestRun, .badRequestRealtimeUrl, .badRequestImageSize, .badRequestTooManyBulletPoints, .badRequestBulletPointTextTooLong,
        .badRequestAboveImageRequiresAnImage, .subscriptionExtensionIneligible, .subscriptionMaxExtension, .familySharedSubscriptionExtensionIneligible,
        .maximumNumberOfImagesReached, .maximumNumberOfMessagesReached, .messageNotApproved, .imageNotApproved, .imageInUse, .forbiddenNoPassingTest,
        .accountNotFound, .accountNotFoundRetryable, .appNotFound, .appNotFoundRetryable, .originalTransactionIdNotFound,
        .originalTransactionIdNotFoundRetryable, .serverNotificationUrlNotFound, .testNotificationNotFound, .statusRequestNotFound, .transactionIdNotFound,
        .imageNotFound, .messageNotFound, .performanceTestRunNotFound, .appTransactionDoesNotExist, .defaultMessageNotFound, .realtimeUrlNotFound,
        .imageAlreadyExists, .messageAlreadyExists, .rateLimitExceeded, .generalInternal, .generalInternalRetryable,
    ]
    public var isKnown: Bool { Self.known.contains(self) }

    /// Codes Apple marks as worth retrying.
    public var isRetryable: Bool {
        [Self.accountNotFoundRetryable, .appNotFoundRetryable, .originalTransactionIdNotFoundRetryable, .generalInternalRetryable, .rateLimitExceeded].contains(
            self)
    }

    public var description: String { String(rawValue) }
}
