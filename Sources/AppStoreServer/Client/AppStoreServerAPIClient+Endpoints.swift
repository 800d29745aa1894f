import Foundation
import NIOHTTP1

extension AppStoreServerAPIClient {
    public enum TransactionHistoryVersion: String, Sendable {
        @available(*, deprecated, message: "Apple deprecated v1 of Get Transaction History; use v2")
        case v1
        case v2
    }

    /// Get Transaction Info: `GET /inApps/v1/transactions/{transactionId}`.
    public func getTransactionInfo(transactionId: String) async throws(AppStoreServerAPIError) -> TransactionInfoResponse {
        try await decode(TransactionInfoResponse.self, Call(method: .GET, path: ["inApps", "v1", "transactions", transactionId]))
    }

    /// Get Transaction History: `GET /inApps/{v1|v2}/history/{anyTransactionId}`, one page.
    public func getTransactionHistory(
        anyTransactionId: String, revision: String?, request: TransactionHistoryRequest = TransactionHistoryRequest(), version: TransactionHistoryVersion = .v2
    ) async throws(AppStoreServerAPIError) -> HistoryResponse {
        var query = Self.historyQuery(request)
        if let revision { query.insert(("revision", revision), at: 0) }
        return try await decode(HistoryResponse.self, Call(method: .GET, path: ["inApps", version.rawValue, "history", anyTransactionId], query: query))
    }

    /// Every page of the transaction history, following `revision` while `hasMore`.
    public func transactionHistory(anyTransactionId: String, request: TransactionHistoryRequest = TransactionHistoryRequest()) -> PageSequence<HistoryResponse>
    {
        PageSequence { revision in
            let page = try await getTransactionHistory(anyTransactionId: anyTransactionId, revision: revision, request: request)
            return (page, page.hasMore == true ? page.revision : nil)
        }
    }

    /// Get All Subscription Statuses: `GET /inApps/v1/subscriptions/{anyTransactionId}`, optionally filtered by status.
    public func getAllSubscriptionStatuses(anyTransactionId: String, status: [Status] = []) async throws(AppStoreServerAPIError) -> StatusResponse {
        try await decode(
            StatusResponse.self,
            Call(method: .GET, path: ["inApps", "v1", "subscriptions", anyTransactionId], query: status.map { ("status", String($0.rawValue)) }))
    }

    /// Get Refund History: `GET /inApps/v2/refund/lookup/{anyTransactionId}`, one page.
    public func getRefundHistory(anyTransactionId: String, revision: String?) async throws(AppStoreServerAPIError) -> RefundHistoryResponse {
        try await decode(
            RefundHistoryResponse.self,
            Call(method: .GET, path: ["inApps", "v2", "refund", "lookup", anyTransactionId], query: revision.map { [("revision", $0)] } ?? []))
    }

    /// Every page of the refund history.
    public func refundHistory(anyTransactionId: String) -> PageSequence<RefundHistoryResponse> {
        PageSequence { revision in
            let page = try await getRefundHistory(anyTransactionId: anyTransactionId, revision: revision)
            return (page, page.hasMore == true ? page.revision : nil)
        }
    }

    /// Look Up Order ID: `GET /inApps/v1/lookup/{orderId}`.
    public func lookUpOrderId(orderId: String) async throws(AppStoreServerAPIError) -> OrderLookupResponse {
        try await decode(OrderLookupResponse.self, Call(method: .GET, path: ["inApps", "v1", "lookup", orderId]))
    }

    /// Extend a Subscription Renewal Date: `PUT /inApps/v1/subscriptions/extend/{originalTransactionId}`.
    public func extendSubscriptionRenewalDate(
        originalTransactionId: String, request: ExtendRenewalDateRequest
    ) async throws(AppStoreServerAPIError)
        -> ExtendRenewalDateResponse
    {
        try await decode(
            ExtendRenewalDateResponse.self,
            Call(method: .PUT, path: ["inApps", "v1", "subscriptions", "extend", originalTransactionId], body: try Self.json(request)))
    }

    /// Extend Subscription Renewal Dates for All Active Subscribers: `POST /inApps/v1/subscriptions/extend/mass`.
    public func extendRenewalDateForAllActiveSubscribers(
        request: MassExtendRenewalDateRequest
    ) async throws(AppStoreServerAPIError)
        -> MassExtendRenewalDateResponse
    {
        try await decode(
            MassExtendRenewalDateResponse.self, Call(method: .POST, path: ["inApps", "v1", "subscriptions", "extend", "mass"], body: try Self.json(request)))
    }

    /// Get Status of Subscription Renewal Date Extensions: `GET /inApps/v1/subscriptions/extend/mass/{productId}/{requestIdentifier}`.
    public func getStatusOfSubscriptionRenewalDateExtensions(
        requestIdentifier: String, productId: String
    ) async throws(AppStoreServerAPIError)
        -> MassExtendRenewalDateStatusResponse
    {
        try await decode(
            MassExtendRenewalDateStatusResponse.self,
            Call(method: .GET, path: ["inApps", "v1", "subscriptions", "extend", "mass", productId, requestIdentifier]))
    }

    /// Get Notification History: `POST /inApps/v1/notifications/history`, one page.
    public func getNotificationHistory(
        paginationToken: String?, request: NotificationHistoryRequest
    ) async throws(AppStoreServerAPIError)
        -> NotificationHistoryResponse
    {
        try await decode(
            NotificationHistoryResponse.self,
            Call(
                method: .POST, path: ["inApps", "v1", "notifications", "history"], query: paginationToken.map { [("paginationToken", $0)] } ?? [],
                body: try Self.json(request)))
    }

    /// Every page of the notification history, following `paginationToken` while `hasMore`.
    public func notificationHistory(request: NotificationHistoryRequest) -> PageSequence<NotificationHistoryResponse> {
        PageSequence { token in
            let page = try await getNotificationHistory(paginationToken: token, request: request)
            return (page, page.hasMore == true ? page.paginationToken : nil)
        }
    }

    /// Request a Test Notification: `POST /inApps/v1/notifications/test`.
    public func requestTestNotification() async throws(AppStoreServerAPIError) -> SendTestNotificationResponse {
        try await decode(SendTestNotificationResponse.self, Call(method: .POST, path: ["inApps", "v1", "notifications", "test"], idempotent: false))
    }

    /// Get Test Notification Status: `GET /inApps/v1/notifications/test/{testNotificationToken}`.
    public func getTestNotificationStatus(testNotificationToken: String) async throws(AppStoreServerAPIError) -> CheckTestNotificationResponse {
        try await decode(CheckTestNotificationResponse.self, Call(method: .GET, path: ["inApps", "v1", "notifications", "test", testNotificationToken]))
    }

    /// Send Consumption Information (v2): `PUT /inApps/v2/transactions/consumption/{transactionId}`.
    public func sendConsumptionInformation(transactionId: String, request: ConsumptionRequest) async throws(AppStoreServerAPIError) {
        _ = try await send(Call(method: .PUT, path: ["inApps", "v2", "transactions", "consumption", transactionId], body: try Self.json(request)))
    }

    /// Send Consumption Information (v1): `PUT /inApps/v1/transactions/consumption/{transactionId}`.
    @available(*, deprecated, message: "Apple deprecated v1; use sendConsumptionInformation")
    public func sendConsumptionData(transactionId: String, request: ConsumptionRequestV1) async throws(AppStoreServerAPIError) {
        try await sendConsumptionDataToLegacyEndpoint(transactionId: transactionId, request: request)
    }

    /// The same, for a caller that must still serve apps configured for v1 and says so by importing the
    /// `LegacyConsumption` SPI (Storegate's refund policy with `consumptionApi: v1`).
    @_spi(LegacyConsumption)
    public func sendConsumptionDataToLegacyEndpoint(transactionId: String, request: ConsumptionRequestV1) async throws(AppStoreServerAPIError) {
        _ = try await send(Call(method: .PUT, path: ["inApps", "v1", "transactions", "consumption", transactionId], body: try Self.json(request)))
    }

    /// Set App Account Token: `PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken`.
    public func setAppAccountToken(originalTransactionId: String, request: UpdateAppAccountTokenRequest) async throws(AppStoreServerAPIError) {
        _ = try await send(
            Call(method: .PUT, path: ["inApps", "v1", "transactions", originalTransactionId, "appAccountToken"], body: try Self.json(request)))
    }

    /// Finish Transaction (API 1.20): `POST /inApps/v1/transactions/{transactionId}/finish`, no body, an empty
    /// answer. Tells Apple the server has finished processing the transaction (delivered its content), as
    /// StoreKit's `finish()` does on the device. Sending it twice does what sending it once does.
    public func finishTransaction(transactionId: String) async throws(AppStoreServerAPIError) {
        _ = try await send(Call(method: .POST, path: ["inApps", "v1", "transactions", transactionId, "finish"]))
    }

    /// Get App Transaction Info: `GET /inApps/v1/transactions/appTransactions/{anyTransactionId}`.
    public func getAppTransactionInfo(anyTransactionId: String) async throws(AppStoreServerAPIError) -> AppTransactionInfoResponse {
        try await decode(AppTransactionInfoResponse.self, Call(method: .GET, path: ["inApps", "v1", "transactions", "appTransactions", anyTransactionId]))
    }

    /// The query of Get Transaction History; product types in the API's own spelling.
    static func historyQuery(_ request: TransactionHistoryRequest) -> [(String, String)] {
        var query: [(String, String)] = []
        if let start = request.startDate { query.append(("startDate", String(start.milliseconds))) }
        if let end = request.endDate { query.append(("endDate", String(end.milliseconds))) }
        for id in request.productIds ?? [] { query.append(("productId", id)) }
        for type in request.productTypes ?? [] {
            let value: String =
                switch type {
                case .autoRenewableSubscription: "AUTO_RENEWABLE"
                case .nonRenewingSubscription: "NON_RENEWABLE"
                case .consumable: "CONSUMABLE"
                case .nonConsumable: "NON_CONSUMABLE"
                default: type.rawValue
                }
            query.append(("productType", value))
        }
        if let sort = request.sort { query.append(("sort", sort.rawValue)) }
        for group in request.subscriptionGroupIdentifiers ?? [] { query.append(("subscriptionGroupIdentifier", group)) }
        if let ownership = request.inAppOwnershipType { query.append(("inAppOwnershipType", ownership.rawValue)) }
        if let revoked = request.revoked { query.append(("revoked", revoked ? "true" : "false")) }
        return query
    }
}

/// Pages of a paginated endpoint, fetched one at a time as the sequence is iterated.
public struct PageSequence<Page: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Page
    /// Fetches the page for a cursor (nil for the first) and returns it with the next cursor, or nil when done.
    let fetch: @Sendable (String?) async throws -> (Page, String?)

    init(fetch: @escaping @Sendable (String?) async throws -> (Page, String?)) { self.fetch = fetch }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let fetch: @Sendable (String?) async throws -> (Page, String?)
        var cursor: String?
        var done = false

        public mutating func next() async throws -> Page? {
            guard !done else { return nil }
            let (page, next) = try await fetch(cursor)
            cursor = next
            done = next == nil
            return page
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(fetch: fetch) }
}
