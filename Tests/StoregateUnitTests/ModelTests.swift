import AppStoreServer
import Foundation
import TestVectors
import Testing

/// Every decoded-payload and response fixture in ../shared/vectors/apple/models decodes, and
/// re-encoding gives back the same JSON: no field lost, unknown enum values kept, UUIDs lowercase.
@Suite struct ModelTests {
    static var types: [String: any Codable.Type] {
        [
            "apiException": ErrorPayload.self, "apiTooManyRequestsException": ErrorPayload.self, "apiUnknownError": ErrorPayload.self,
            "appTransactionDoesNotExistError": ErrorPayload.self, "familyTransactionNotSupportedError": ErrorPayload.self,
            "invalidAppAccountTokenUUIDError": ErrorPayload.self, "invalidTransactionIdError": ErrorPayload.self,
            "transactionIdNotFoundError": ErrorPayload.self,
            "transactionIdNotOriginalTransactionId": ErrorPayload.self,
            "appData": AppData.self, "appTransaction": AppTransaction.self, "appTransactionInfoResponse": AppTransactionInfoResponse.self,
            "decodedRealtimeRequest": DecodedRealtimeRequestBody.self,
            "extendRenewalDateForAllActiveSubscribersResponse": MassExtendRenewalDateResponse.self,
            "extendSubscriptionRenewalDateResponse": ExtendRenewalDateResponse.self, "getAllSubscriptionStatusesResponse": StatusResponse.self,
            "getDefaultMessageResponse": DefaultConfigurationResponse.self, "getImageListResponse": GetImageListResponse.self,
            "getMessageListResponse": GetMessageListResponse.self, "getNotificationHistoryResponse": NotificationHistoryResponse.self,
            "getRealtimeUrlResponse": RealtimeUrlResponse.self, "getRefundHistoryResponse": RefundHistoryResponse.self,
            "getStatusOfSubscriptionRenewalDateExtensionsResponse": MassExtendRenewalDateStatusResponse.self,
            "getTestNotificationStatusResponse": CheckTestNotificationResponse.self, "lookupOrderIdResponse": OrderLookupResponse.self,
            "performanceTestResponse": PerformanceTestResponse.self, "performanceTestResultResponse": PerformanceTestResultResponse.self,
            "requestTestNotificationResponse": SendTestNotificationResponse.self,
            "signedConsumptionRequestNotification": ResponseBodyV2DecodedPayload.self,
            "signedExternalPurchaseTokenNotification": ResponseBodyV2DecodedPayload.self,
            "signedExternalPurchaseTokenSandboxNotification": ResponseBodyV2DecodedPayload.self, "signedNotification": ResponseBodyV2DecodedPayload.self,
            "signedRescindConsentNotification": ResponseBodyV2DecodedPayload.self, "signedSummaryNotification": ResponseBodyV2DecodedPayload.self,
            "signedRenewalInfo": JWSRenewalInfoDecodedPayload.self, "signedTransaction": JWSTransactionDecodedPayload.self,
            "signedTransactionWithRevocation": JWSTransactionDecodedPayload.self, "transactionHistoryResponse": HistoryResponse.self,
            "transactionHistoryResponseWithMalformedEnvironment": HistoryResponse.self, "transactionInfoResponse": TransactionInfoResponse.self,
            "advancedCommerceDescriptors": AdvancedCommerceDescriptors.self, "advancedCommerceOffer": AdvancedCommerceOffer.self,
            "advancedCommerceOneTimeChargeCreateRequest": AdvancedCommerceOneTimeChargeCreateRequest.self,
            "advancedCommerceOneTimeChargeItem": AdvancedCommerceOneTimeChargeItem.self, "advancedCommerceRequestInfo": AdvancedCommerceRequestInfo.self,
            "advancedCommerceRequestRefundItem": AdvancedCommerceRequestRefundItem.self,
            "advancedCommerceRequestRefundRequest": AdvancedCommerceRequestRefundRequest.self,
            "advancedCommerceRequestRefundResponse": AdvancedCommerceRequestRefundResponse.self,
            "advancedCommerceSubscriptionCancelRequest": AdvancedCommerceSubscriptionCancelRequest.self,
            "advancedCommerceSubscriptionCancelResponse": AdvancedCommerceSubscriptionCancelResponse.self,
            "advancedCommerceSubscriptionChangeMetadataDescriptors": AdvancedCommerceSubscriptionChangeMetadataDescriptors.self,
            "advancedCommerceSubscriptionChangeMetadataItem": AdvancedCommerceSubscriptionChangeMetadataItem.self,
            "advancedCommerceSubscriptionChangeMetadataRequest": AdvancedCommerceSubscriptionChangeMetadataRequest.self,
            "advancedCommerceSubscriptionChangeMetadataResponse": AdvancedCommerceSubscriptionChangeMetadataResponse.self,
            "advancedCommerceSubscriptionCreateItem": AdvancedCommerceSubscriptionCreateItem.self,
            "advancedCommerceSubscriptionCreateRequest": AdvancedCommerceSubscriptionCreateRequest.self,
            "advancedCommerceSubscriptionMigrateDescriptors": AdvancedCommerceSubscriptionMigrateDescriptors.self,
            "advancedCommerceSubscriptionMigrateItem": AdvancedCommerceSubscriptionMigrateItem.self,
            "advancedCommerceSubscriptionMigrateRenewalItem": AdvancedCommerceSubscriptionMigrateRenewalItem.self,
            "advancedCommerceSubscriptionMigrateRequest": AdvancedCommerceSubscriptionMigrateRequest.self,
            "advancedCommerceSubscriptionMigrateResponse": AdvancedCommerceSubscriptionMigrateResponse.self,
            "advancedCommerceSubscriptionModifyAddItem": AdvancedCommerceSubscriptionModifyAddItem.self,
            "advancedCommerceSubscriptionModifyChangeItem": AdvancedCommerceSubscriptionModifyChangeItem.self,
            "advancedCommerceSubscriptionModifyDescriptors": AdvancedCommerceSubscriptionModifyDescriptors.self,
            "advancedCommerceSubscriptionModifyInAppRequest": AdvancedCommerceSubscriptionModifyInAppRequest.self,
            "advancedCommerceSubscriptionModifyPeriodChange": AdvancedCommerceSubscriptionModifyPeriodChange.self,
            "advancedCommerceSubscriptionModifyRemoveItem": AdvancedCommerceSubscriptionModifyRemoveItem.self,
            "advancedCommerceSubscriptionPriceChangeItem": AdvancedCommerceSubscriptionPriceChangeItem.self,
            "advancedCommerceSubscriptionPriceChangeRequest": AdvancedCommerceSubscriptionPriceChangeRequest.self,
            "advancedCommerceSubscriptionPriceChangeResponse": AdvancedCommerceSubscriptionPriceChangeResponse.self,
            "advancedCommerceSubscriptionReactivateInAppRequest": AdvancedCommerceSubscriptionReactivateInAppRequest.self,
            "advancedCommerceSubscriptionReactivateItem": AdvancedCommerceSubscriptionReactivateItem.self,
            "advancedCommerceSubscriptionRevokeRequest": AdvancedCommerceSubscriptionRevokeRequest.self,
            "advancedCommerceSubscriptionRevokeResponse": AdvancedCommerceSubscriptionRevokeResponse.self,
        ]
    }

    @Test func everyFixtureHasAModel() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: AppleVectors.root.appendingPathComponent("models").path)
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }
        let expectedToFail: Set = ["transactionHistoryResponseWithMalformedAppAppleId"]
        #expect(Set(files).subtracting(expectedToFail) == Set(Self.types.keys))
    }

    @Test(arguments: Array(ModelTests.types.keys).sorted())
    func fixtureRoundTrips(_ name: String) throws {
        let type = try #require(Self.types[name])
        let original = try AppleVectors.data("models/\(name).json")
        let reencoded = try Self.roundTrip(type, original)
        let before = try JSONSerialization.jsonObject(with: original)
        let after = try JSONSerialization.jsonObject(with: reencoded)
        #expect(Self.same(before, after), "\(name): \(String(decoding: reencoded, as: UTF8.self))")
    }

    static func roundTrip<T: Codable>(_ type: T.Type, _ data: Data) throws -> Data {
        try JSONEncoder().encode(JSONDecoder().decode(T.self, from: data))
    }

    /// JSON equality where UUID strings compare regardless of case (they are written lowercase).
    static func same(_ a: Any, _ b: Any) -> Bool {
        switch (a, b) {
        case let (a as [String: Any], b as [String: Any]):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { same(value, $0) } ?? false }
        case let (a as [Any], b as [Any]):
            return a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
        case let (a as String, b as String):
            if let x = UUID(uuidString: a), let y = UUID(uuidString: b) { return x == y && b == b.lowercased() }
            return a == b
        case let (a as NSNumber, b as NSNumber):
            return a == b
        case (is NSNull, is NSNull):
            return true
        default:
            return false
        }
    }

    @Test func unknownEnumValuesSurvive() throws {
        let response = try JSONDecoder().decode(HistoryResponse.self, from: AppleVectors.data("models/transactionHistoryResponseWithMalformedEnvironment.json"))
        #expect(response.environment?.rawValue == "LocalTestingxxx")
        #expect(response.environment?.isKnown == false)
        let transaction = try JSONDecoder().decode(
            JWSTransactionDecodedPayload.self, from: Data(#"{"type":"Lifetime Pass","offerType":9,"transactionReason":"GIFT"}"#.utf8))
        #expect(transaction.type?.rawValue == "Lifetime Pass")
        #expect(transaction.offerType == OfferType(rawValue: 9))
        let again = try JSONSerialization.jsonObject(with: JSONEncoder().encode(transaction)) as? [String: Any]
        #expect(again?["type"] as? String == "Lifetime Pass")
        #expect(again?["offerType"] as? Int == 9)
        #expect(again?["transactionReason"] as? String == "GIFT")
    }

    @Test func apiErrorCodesKeepUnknownValues() throws {
        let unknown = try JSONDecoder().decode(ErrorPayload.self, from: AppleVectors.data("models/apiUnknownError.json"))
        let code = APIErrorCode(rawValue: try #require(unknown.errorCode))
        #expect(code.rawValue == 9_990_000)
        #expect(!code.isKnown)
        let limited = try JSONDecoder().decode(ErrorPayload.self, from: AppleVectors.data("models/apiTooManyRequestsException.json"))
        #expect(APIErrorCode(rawValue: try #require(limited.errorCode)) == .rateLimitExceeded)
        #expect(APIErrorCode.rateLimitExceeded.isRetryable)
        #expect(APIErrorCode.known.count == 87)
    }

    @Test func wronglyTypedFieldsFailTheDecode() throws {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(HistoryResponse.self, from: AppleVectors.data("models/transactionHistoryResponseWithMalformedAppAppleId.json"))
        }
    }

    @Test func fractionalMillisecondsAndLowercaseUUIDs() throws {
        let json = Data(#"{"purchaseDate":1697679936049.7297,"signedDate":1698148900000,"appAccountToken":"7389A31A-FB6D-4569-A2A6-DB7D85D84813"}"#.utf8)
        let transaction = try JSONDecoder().decode(JWSTransactionDecodedPayload.self, from: json)
        #expect(transaction.purchaseDate?.millisecondsSince1970 == 1697679936049.7297)
        #expect(transaction.signedDate?.date == Date(timeIntervalSince1970: 1_698_148_900))
        let text = String(decoding: try JSONEncoder().encode(transaction), as: UTF8.self)
        #expect(text.contains(#""appAccountToken":"7389a31a-fb6d-4569-a2a6-db7d85d84813""#))
        #expect(text.contains(#""signedDate":1698148900000"#))
        #expect(text.contains("1697679936049.7"))
    }
}
