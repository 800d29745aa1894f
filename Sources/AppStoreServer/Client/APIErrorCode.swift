/// One of Apple's App Store Server API error codes. An open set: a code this build does not know is kept.
public struct APIErrorCode: AppStoreValue {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    public static let generalBadRequest = APIErrorCode(rawValue: 4_000_000)
    public static let invalidAppIdentifier = APIErrorCode(rawValue: 4_000_002)
    public static let invalidRequestRevision = APIErrorCode(rawValue: 4_000_005)
    public static let invalidTransactionId = APIErrorCode(rawValue: 4_000_006)
    public static let invalidOriginalTransactionId = APIErrorCode(rawValue: 4_000_008)
    public static let invalidExtendByDays = APIErrorCode(rawValue: 4_000_009)
    public static let invalidExtendReasonCode = APIErrorCode(rawValue: 4_000_010)
    public static let invalidRequestIdentifier = APIErrorCode(rawValue: 4_000_011)
    public static let startDateTooFarInPast = APIErrorCode(rawValue: 4_000_012)
    public static let startDateAfterEndDate = APIErrorCode(rawValue: 4_000_013)
    public static let invalidPaginationToken = APIErrorCode(rawValue: 4_000_014)
    public static let invalidStartDate = APIErrorCode(rawValue: 4_000_015)
    public static let invalidEndDate = APIErrorCode(rawValue: 4_000_016)
    public static let paginationTokenExpired = APIErrorCode(rawValue: 4_000_017)
    public static let invalidNotificationType = APIErrorCode(rawValue: 4_000_018)
    public static let multipleFiltersSupplied = APIErrorCode(rawValue: 4_000_019)
    public static let invalidTestNotificationToken = APIErrorCode(rawValue: 4_000_020)
    public static let invalidSort = APIErrorCode(rawValue: 4_000_021)
    public static let invalidProductType = APIErrorCode(rawValue: 4_000_022)
    public static let invalidProductId = APIErrorCode(rawValue: 4_000_023)
    public static let invalidSubscriptionGroupIdentifier = APIErrorCode(rawValue: 4_000_024)
    public static let invalidExcludeRevoked = APIErrorCode(rawValue: 4_000_025)
    public static let invalidInAppOwnershipType = APIErrorCode(rawValue: 4_000_026)
    public static let invalidEmptyStorefrontCountryCodeList = APIErrorCode(rawValue: 4_000_027)
    public static let invalidStorefrontCountryCode = APIErrorCode(rawValue: 4_000_028)
    public static let invalidRevoked = APIErrorCode(rawValue: 4_000_030)
    public static let invalidStatus = APIErrorCode(rawValue: 4_000_031)
    public static let invalidAccountTenure = APIErrorCode(rawValue: 4_000_032)
    public static let invalidAppAccountToken = APIErrorCode(rawValue: 4_000_033)
    public static let invalidConsumptionStatus = APIErrorCode(rawValue: 4_000_034)
    public static let invalidCustomerConsented = APIErrorCode(rawValue: 4_000_035)
    public static let invalidDeliveryStatus = APIErrorCode(rawValue: 4_000_036)
    public static let invalidLifetimeDollarsPurchased = APIErrorCode(rawValue: 4_000_037)
    public static let invalidLifetimeDollarsRefunded = APIErrorCode(rawValue: 4_000_038)
    public static let invalidPlatform = APIErrorCode(rawValue: 4_000_039)
    public static let invalidPlayTime = APIErrorCode(rawValue: 4_000_040)
    public static let invalidSampleContentProvided = APIErrorCode(rawValue: 4_000_041)
    public static let invalidUserStatus = APIErrorCode(rawValue: 4_000_042)
    public static let invalidTransactionNotConsumable = APIErrorCode(rawValue: 4_000_043)
    public static let invalidTransactionTypeNotSupported = APIErrorCode(rawValue: 4_000_047)
    public static let appTransactionIdNotSupported = APIErrorCode(rawValue: 4_000_048)
    public static let invalidImage = APIErrorCode(rawValue: 4_000_161)
    public static let headerTooLong = APIErrorCode(rawValue: 4_000_162)
    public static let bodyTooLong = APIErrorCode(rawValue: 4_000_163)
    public static let invalidLocale = APIErrorCode(rawValue: 4_000_164)
    public static let altTextTooLong = APIErrorCode(rawValue: 4_000_175)
    public static let invalidAppAccountTokenUUID = APIErrorCode(rawValue: 4_000_183)
    public static let familyTransactionNotSupported = APIErrorCode(rawValue: 4_000_185)
    public static let transactionIdNotOriginalTransactionId = APIErrorCode(rawValue: 4_000_187)
    public static let invalidPerformanceTestRequest = APIErrorCode(rawValue: 4_000_211)
    public static let invalidRequestId = APIErrorCode(rawValue: 4_000_212)
    public static let existingPerformanceTestRun = APIErrorCode(rawValue: 4_000_213)
    public static let badRequestRealtimeUrl = APIErrorCode(rawValue: 4_000_215)
    public static let badRequestImageSize = APIErrorCode(rawValue: 4_000_216)
    public static let badRequestTooManyBulletPoints = APIErrorCode(rawValue: 4_000_218)
    public static let badRequestBulletPointTextTooLong = APIErrorCode(rawValue: 4_000_219)
    public static let badRequestAboveImageRequiresAnImage = APIErrorCode(rawValue: 4_000_224)
    public static let subscriptionExtensionIneligible = APIErrorCode(rawValue: 4_030_004)
    public static let subscriptionMaxExtension = APIErrorCode(rawValue: 4_030_005)
    public static let familySharedSubscriptionExtensionIneligible = APIErrorCode(rawValue: 4_030_007)
    public static let maximumNumberOfImagesReached = APIErrorCode(rawValue: 4_030_014)
    public static let maximumNumberOfMessagesReached = APIErrorCode(rawValue: 4_030_016)
    public static let messageNotApproved = APIErrorCode(rawValue: 4_030_017)
    public static let imageNotApproved = APIErrorCode(rawValue: 4_030_018)
    public static let imageInUse = APIErrorCode(rawValue: 4_030_019)
    public static let forbiddenNoPassingTest = APIErrorCode(rawValue: 4_030_026)
    public static let accountNotFound = APIErrorCode(rawValue: 4_040_001)
    public static let accountNotFoundRetryable = APIErrorCode(rawValue: 4_040_002)
    public static let appNotFound = APIErrorCode(rawValue: 4_040_003)
    public static let appNotFoundRetryable = APIErrorCode(rawValue: 4_040_004)
    public static let originalTransactionIdNotFound = APIErrorCode(rawValue: 4_040_005)
    public static let originalTransactionIdNotFoundRetryable = APIErrorCode(rawValue: 4_040_006)
    public static let serverNotificationUrlNotFound = APIErrorCode(rawValue: 4_040_007)
    public static let testNotificationNotFound = APIErrorCode(rawValue: 4_040_008)
    public static let statusRequestNotFound = APIErrorCode(rawValue: 4_040_009)
    public static let transactionIdNotFound = APIErrorCode(rawValue: 4_040_010)
    public static let imageNotFound = APIErrorCode(rawValue: 4_040_014)
    public static let messageNotFound = APIErrorCode(rawValue: 4_040_015)
    public static let performanceTestRunNotFound = APIErrorCode(rawValue: 4_040_018)
    public static let appTransactionDoesNotExist = APIErrorCode(rawValue: 4_040_019)
    public static let defaultMessageNotFound = APIErrorCode(rawValue: 4_040_020)
    public static let realtimeUrlNotFound = APIErrorCode(rawValue: 4_040_021)
    public static let imageAlreadyExists = APIErrorCode(rawValue: 4_090_000)
    public static let messageAlreadyExists = APIErrorCode(rawValue: 4_090_001)
    public static let rateLimitExceeded = APIErrorCode(rawValue: 4_290_000)
    public static let generalInternal = APIErrorCode(rawValue: 5_000_000)
    public static let generalInternalRetryable = APIErrorCode(rawValue: 5_000_001)

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

    /// Codes Apple marks as worth retrying.
    public var isRetryable: Bool {
        [Self.accountNotFoundRetryable, .appNotFoundRetryable, .originalTransactionIdNotFoundRetryable, .generalInternalRetryable, .rateLimitExceeded].contains(
            self)
    }

}
