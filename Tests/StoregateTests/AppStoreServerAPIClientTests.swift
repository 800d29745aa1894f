import AppStoreServer
import AppStoreSimulator
import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// The API client against the App Store simulator over real HTTP: paths, queries, bodies and bearer
/// claims as Apple expects them, pagination, typed errors, Retry-After and bounded retries.
@Suite struct AppStoreServerAPIClientTests {
    typealias Purchase = SimulatorStore.Purchase

    static func subscription(_ customer: String, token: UUID? = nil) -> Purchase {
        var purchase = Purchase(
            customer: customer, bundleId: SimulatorHarness.bundleId, productId: "com.example.monthly", type: .autoRenewableSubscription, appAccountToken: token)
        purchase.subscriptionGroupIdentifier = "group.premium"
        return purchase
    }

    static func consumable(_ customer: String) -> Purchase {
        Purchase(customer: customer, bundleId: SimulatorHarness.bundleId, productId: "com.example.coins", type: .consumable)
    }

    @Test func transactionInfoIsSignedByTheSimulatorsChain() async throws {
        try await SimulatorHarness.with { sim in
            let bought = await sim.store.purchase(Self.consumable("alice"))
            let id = try #require(bought.transactionId)
            let info = try await sim.client.getTransactionInfo(transactionId: id)
            let signed = try #require(info.signedTransactionInfo)
            let verified = try #require(await sim.verifier().verify(signed, as: .transaction).payload)
            let transaction = try verified.decode(JWSTransactionDecodedPayload.self)
            #expect(transaction.transactionId == id)
            #expect(transaction.type == .consumable)

            let appleOnly = SignedDataVerifier(
                configuration: .init(bundleId: SimulatorHarness.bundleId, appAppleId: nil, environment: "Sandbox"),
                chains: ChainVerifier(roots: [try ChainVerifier.appleRootCAG3()]))
            #expect(await appleOnly.verify(signed).failure?.code == "brokenChain")

            let request = try #require(await sim.store.received.last)
            #expect(request.method == "GET")
            #expect(request.path == "/inApps/v1/transactions/\(id)")
            #expect(request.bearerClaims["aud"] == "appstoreconnect-v1")
            #expect(request.bearerClaims["bid"] == SimulatorHarness.bundleId)
            #expect(request.bearerClaims["iss"] == Fixtures.issuerId)
            #expect(request.bearerClaims["kid"] == "SIMKEY0001")
            #expect(request.bearerClaims["typ"] == "JWT")

            await #expect(throws: AppStoreServerAPIError.self) { try await sim.client.getTransactionInfo(transactionId: "999") }
            do {
                _ = try await sim.client.getTransactionInfo(transactionId: "999")
            } catch {
                #expect((error as? AppStoreServerAPIError)?.apiErrorCode == .transactionIdNotFound)
                if case .api(let status, _, let message, _)? = error as? AppStoreServerAPIError {
                    #expect(status == 404)
                    #expect(message == "Transaction id not found.")
                }
            }
            do {
                _ = try await sim.client.getTransactionInfo(transactionId: "abc")
            } catch { #expect((error as? AppStoreServerAPIError)?.apiErrorCode == .invalidTransactionId) }
        }
    }

    @Test func historyIsPagedAndFiltered() async throws {
        try await SimulatorHarness.with { sim in
            var ids: [String] = []
            for _ in 0..<45 { ids.append(await sim.store.purchase(Self.consumable("bob")).transactionId ?? "") }
            await sim.store.purchase(Self.subscription("bob"))
            var pages: [HistoryResponse] = []
            for try await page in sim.client.transactionHistory(
                anyTransactionId: ids[3], request: TransactionHistoryRequest(productTypes: [.consumable], revoked: false))
            {
                pages.append(page)
            }
            #expect(pages.map { $0.signedTransactions?.count ?? 0 } == [20, 20, 5])
            var seen: [String] = []
            for page in pages {
                for signed in page.signedTransactions ?? [] {
                    seen.append(try #require(await sim.verifier().verify(signed).payload).decode(JWSTransactionDecodedPayload.self).transactionId ?? "")
                }
            }
            #expect(seen == ids)
            let requests = await sim.store.received.filter { $0.path.hasPrefix("/inApps/v2/history/") }
            #expect(requests.count == 3)
            #expect(requests[0].query.contains { $0 == ("productType", "CONSUMABLE") })
            #expect(requests[0].query.contains { $0 == ("revoked", "false") })
            #expect(!requests[0].query.contains { $0.0 == "revision" })
            #expect(requests[1].query.contains { $0 == ("revision", pages[0].revision ?? "") })
        }
    }

    @Test func statusesRefundsOrdersAndAppTransactions() async throws {
        try await SimulatorHarness.with { sim in
            let subscription = await sim.store.purchase(Self.subscription("carol"))
            let coins = await sim.store.purchase(Self.consumable("carol"))
            let original = try #require(subscription.originalTransactionId)

            let statuses = try await sim.client.getAllSubscriptionStatuses(anyTransactionId: try #require(coins.transactionId))
            #expect(statuses.data?.first?.subscriptionGroupIdentifier == "group.premium")
            #expect(statuses.data?.first?.lastTransactions?.first?.status == .active)
            #expect(statuses.data?.first?.lastTransactions?.first?.originalTransactionId == original)
            let expiredOnly = try await sim.client.getAllSubscriptionStatuses(anyTransactionId: original, status: [.expired, .revoked])
            #expect(expiredOnly.data?.isEmpty == true)
            #expect(await sim.store.received.last?.query.map(\.1) == ["2", "5"])

            await sim.store.refund(transactionId: try #require(coins.transactionId), percentage: 75_000)
            var refunds: [String] = []
            for try await page in sim.client.refundHistory(anyTransactionId: original) { refunds += page.signedTransactions ?? [] }
            #expect(refunds.count == 1)
            let refunded = try #require(await sim.verifier().verify(refunds[0]).payload).decode(JWSTransactionDecodedPayload.self)
            #expect(refunded.revocationType == .refundProrated)
            #expect(refunded.revocationPercentage == 75_000)

            let orderId = try #require(await sim.store.orderId(of: original))
            let order = try await sim.client.lookUpOrderId(orderId: orderId)
            #expect(order.status == .valid)
            #expect(order.signedTransactions?.count == 1)
            #expect(try await sim.client.lookUpOrderId(orderId: "MNOTREAL").status == .invalid)

            let appTransaction = try await sim.client.getAppTransactionInfo(anyTransactionId: original)
            let signedAppTransaction = try #require(appTransaction.signedAppTransactionInfo)
            let decoded = try #require(await sim.verifier().verify(signedAppTransaction).payload)
            #expect(decoded.kind == .appTransaction)
            do {
                _ = try await sim.client.getAppTransactionInfo(anyTransactionId: "123")
            } catch { #expect((error as? AppStoreServerAPIError)?.apiErrorCode == .appTransactionDoesNotExist) }
        }
    }

    @Test func extensionsConsumptionAndAppAccountTokens() async throws {
        try await SimulatorHarness.with { sim in
            let subscription = await sim.store.purchase(Self.subscription("dave"))
            let original = try #require(subscription.originalTransactionId)
            let request = ExtendRenewalDateRequest(extendByDays: 7, extendReasonCode: .customerSatisfaction, requestIdentifier: "req-1")
            let extended = try await sim.client.extendSubscriptionRenewalDate(originalTransactionId: original, request: request)
            #expect(extended.success == true)
            #expect(extended.effectiveDate?.milliseconds == (subscription.expiresDate?.milliseconds ?? 0) + 7 * 86_400_000)
            let sent = try #require(await sim.store.received.last)
            #expect(sent.method == "PUT")
            #expect(sent.path == "/inApps/v1/subscriptions/extend/\(original)")
            #expect(
                try JSONSerialization.jsonObject(with: sent.body) as? NSDictionary == ["extendByDays": 7, "extendReasonCode": 1, "requestIdentifier": "req-1"])
            _ = try await sim.client.extendSubscriptionRenewalDate(originalTransactionId: original, request: request)
            do {
                _ = try await sim.client.extendSubscriptionRenewalDate(originalTransactionId: original, request: request)
                Issue.record("a third extension within 365 days was accepted")
            } catch { #expect((error as? AppStoreServerAPIError)?.apiErrorCode == .subscriptionMaxExtension) }
            do {
                _ = try await sim.client.extendSubscriptionRenewalDate(
                    originalTransactionId: original, request: ExtendRenewalDateRequest(extendByDays: 91, extendReasonCode: .other, requestIdentifier: "r"))
            } catch { #expect((error as? AppStoreServerAPIError)?.apiErrorCode == .invalidExtendByDays) }

            let mass = try await sim.client.extendRenewalDateForAllActiveSubscribers(
                request: MassExtendRenewalDateRequest(
                    extendByDays: 3, extendReasonCode: .serviceIssueOrOutage, requestIdentifier: "mass-1", productId: "com.example.monthly"))
            #expect(mass.requestIdentifier == "mass-1")
            let massStatus = try await sim.client.getStatusOfSubscriptionRenewalDateExtensions(requestIdentifier: "mass-1", productId: "com.example.monthly")
            #expect(massStatus.complete == true)

            let coins = try #require(await sim.store.purchase(Self.consumable("dave")).transactionId)
            try await sim.client.sendConsumptionInformation(
                transactionId: coins,
                request: ConsumptionRequest(
                    customerConsented: true, consumptionPercentage: 25_000, deliveryStatus: .delivered, refundPreference: .grantProrated,
                    sampleContentProvided: false))
            let body = try #require(await sim.store.consumptionReports[coins])
            #expect(
                try JSONSerialization.jsonObject(with: body) as? NSDictionary == [
                    "customerConsented": true, "consumptionPercentage": 25_000, "deliveryStatus": "DELIVERED", "refundPreference": "GRANT_PRORATED",
                    "sampleContentProvided": false,
                ])
            #expect(await sim.store.received.last?.path == "/inApps/v2/transactions/consumption/\(coins)")
            do {
                try await sim.client.sendConsumptionInformation(
                    transactionId: coins, request: ConsumptionRequest(customerConsented: false, deliveryStatus: .delivered, sampleContentProvided: false))
            } catch { #expect((error as? AppStoreServerAPIError)?.apiErrorCode == .invalidCustomerConsented) }

            let token = UUID()
            try await sim.client.setAppAccountToken(
                originalTransactionId: original, request: UpdateAppAccountTokenRequest(appAccountToken: LowercaseUUID(token)))
            #expect(
                String(decoding: try #require(await sim.store.received.last?.body), as: UTF8.self)
                    == #"{"appAccountToken":"\#(token.uuidString.lowercased())"}"#)
            let signedAfter = try #require(try await sim.client.getTransactionInfo(transactionId: original).signedTransactionInfo)
            let after = try #require(await sim.verifier().verify(signedAfter).payload)
            #expect(try after.decode(JWSTransactionDecodedPayload.self).appAccountToken?.uuid == token)

            var family = Self.subscription("erin")
            family.familyShared = true
            let shared = try #require(await sim.store.purchase(family).transactionId)
            do {
                try await sim.client.setAppAccountToken(
                    originalTransactionId: shared, request: UpdateAppAccountTokenRequest(appAccountToken: LowercaseUUID(token)))
            } catch { #expect((error as? AppStoreServerAPIError)?.apiErrorCode == .familyTransactionNotSupported) }
        }
    }

    @Test func notificationsTestAndHistory() async throws {
        try await SimulatorHarness.with { sim in
            let test = try await sim.client.requestTestNotification()
            let token = try #require(test.testNotificationToken)
            let status = try await sim.client.getTestNotificationStatus(testNotificationToken: token)
            let signedPayload = try #require(status.signedPayload)
            let verified = try #require(await sim.verifier().verify(signedPayload).payload)
            #expect(try verified.decode(ResponseBodyV2DecodedPayload.self).notificationType == .test)
            let appleOnly = SignedDataVerifier(
                configuration: .init(bundleId: SimulatorHarness.bundleId, appAppleId: nil, environment: "Sandbox"),
                chains: ChainVerifier(roots: [try ChainVerifier.appleRootCAG3()]))
            #expect(await appleOnly.verify(signedPayload).failure?.code == "brokenChain")

            for _ in 0..<24 { _ = try await sim.client.requestTestNotification() }
            let request = NotificationHistoryRequest(
                startDate: Timestamp(Date().addingTimeInterval(-3600)), endDate: Timestamp(Date().addingTimeInterval(60)), notificationType: .test)
            var count = 0
            var pages = 0
            for try await page in sim.client.notificationHistory(request: request) {
                count += page.notificationHistory?.count ?? 0
                pages += 1
            }
            #expect(count == 25)
            #expect(pages == 2)
            #expect(await sim.store.received.last?.query.first?.0 == "paginationToken")
            do {
                _ = try await sim.client.getTestNotificationStatus(testNotificationToken: "nope")
            } catch { #expect((error as? AppStoreServerAPIError)?.apiErrorCode == .testNotificationNotFound) }
        }
    }

    @Test func retriesHonourRetryAfterAndStopAtTheirBound() async throws {
        // A budget no loaded machine exhausts before the 400 ms Retry-After is honoured, and still below the 60 s one.
        let retry = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(10), maxDelay: .milliseconds(50), budget: .seconds(30))
        try await SimulatorHarness.with(retry: retry) { sim in
            let id = try #require(await sim.store.purchase(Self.consumable("frank")).transactionId)
            await sim.store.inject(.rateLimited(retryAfter: .milliseconds(400)))
            let started = ContinuousClock.now
            _ = try await sim.client.getTransactionInfo(transactionId: id)
            #expect(ContinuousClock.now - started >= .milliseconds(300), "waited for Retry-After")

            await sim.store.inject(.serverError, times: 5)
            let before = await sim.store.pendingFaults
            do {
                _ = try await sim.client.getTransactionInfo(transactionId: id)
                Issue.record("five server errors were retried past the bound of three attempts")
            } catch {
                #expect((error as? AppStoreServerAPIError)?.apiErrorCode == .generalInternalRetryable)
                #expect((error as? AppStoreServerAPIError)?.isRetryable == true)
            }
            #expect(before - (await sim.store.pendingFaults) == 3, "exactly three attempts")
            await sim.store.clearFaults()

            await sim.store.inject(.serverError, times: 2)
            _ = try await sim.client.getTransactionInfo(transactionId: id)

            await sim.store.inject(.rateLimited(retryAfter: .seconds(60)))
            do {
                _ = try await sim.client.getTransactionInfo(transactionId: id)
            } catch {
                guard case .api(429, .rateLimitExceeded, _, let retryAfter?)? = error as? AppStoreServerAPIError else { throw error }
                #expect(retryAfter > Date().addingTimeInterval(50), "a wait beyond the budget is reported, not slept")
            }
        }
    }

    /// The deprecated v1 endpoints still work: transaction history v1 and Send Consumption Information v1.
    @available(*, deprecated, message: "exercises Apple's deprecated v1 endpoints")
    @Test func deprecatedVersionOneEndpoints() async throws {
        try await SimulatorHarness.with { sim in
            let id = try #require(await sim.store.purchase(Self.consumable("hugo")).transactionId)
            let history = try await sim.client.getTransactionHistory(anyTransactionId: id, revision: nil, version: .v1)
            #expect(history.signedTransactions?.count == 1)
            #expect(await sim.store.received.last?.path == "/inApps/v1/history/\(id)")
            try await sim.client.sendConsumptionData(
                transactionId: id,
                request: ConsumptionRequestV1(
                    customerConsented: true, consumptionStatus: .partiallyConsumed, platform: .apple, sampleContentProvided: false,
                    deliveryStatus: .deliveredAndWorkingProperly, accountTenure: .thirtyDaysToNinetyDays, playTime: .oneToSixHours))
            #expect(await sim.store.received.last?.path == "/inApps/v1/transactions/consumption/\(id)")
            let body = try #require(await sim.store.consumptionReports[id])
            #expect(
                try JSONSerialization.jsonObject(with: body) as? NSDictionary == [
                    "customerConsented": true, "consumptionStatus": 2, "platform": 1, "sampleContentProvided": false, "deliveryStatus": 0, "accountTenure": 4,
                    "playTime": 3,
                ])
        }
    }

    /// The first attempt outlasts its timeout and the second is answered. Each has 5 s: with the whole
    /// suite running on two cores, a retry once took more than 3 s.
    @Test func timeoutsAreRetried() async throws {
        try await SimulatorHarness.with { sim in
            let id = try #require(await sim.store.purchase(Self.consumable("gus")).transactionId)
            let impatient = AppStoreServerAPIClient(
                http: .shared, token: AppStoreServerAPIToken(key: sim.key), environment: .custom(sim.baseURL),
                retry: RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(10), budget: .seconds(16)), timeout: .seconds(5))
            await sim.store.inject(.slow(.seconds(12)))
            _ = try await impatient.getTransactionInfo(transactionId: id)
            #expect(await sim.store.pendingFaults == 0)
        }
    }

    /// Requesting a test notification sends one each time, so a call that may have reached Apple is not
    /// sent again: a timeout is reported, not retried. A 429 (refused unprocessed) is still retried.
    @Test func testNotificationRequestsAreNotRepeatedAfterATimeout() async throws {
        try await SimulatorHarness.with { sim in
            let impatient = AppStoreServerAPIClient(
                http: .shared, token: AppStoreServerAPIToken(key: sim.key), environment: .custom(sim.baseURL),
                retry: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(10), budget: .seconds(16)), timeout: .seconds(3))
            let testPath = "/inApps/v1/notifications/test"
            await sim.store.inject(.slow(.seconds(6)))
            await #expect(throws: AppStoreServerAPIError.self) { _ = try await impatient.requestTestNotification() }
            // The slow request is recorded when its 6 s are up; a retry (not slowed) would be recorded before it.
            try await eventually("the slow request reaches the simulator") { await sim.store.received.contains { $0.path == testPath } }
            try await Task.sleep(for: .milliseconds(500))
            #expect(await sim.store.received.filter { $0.path == testPath }.count == 1, "sent once, not repeated after the timeout")

            await sim.store.inject(.rateLimited(retryAfter: .milliseconds(100)))
            _ = try await impatient.requestTestNotification()
            // The simulator records only what it lets through: the 429 is not counted, the retry is.
            #expect(await sim.store.received.filter { $0.path == testPath }.count == 2, "retried after the 429")
        }
    }

    @Test func badTokensAreRefused() async throws {
        try await SimulatorHarness.with { sim in
            let expired = AppStoreServerAPIClient(
                http: .shared, token: AppStoreServerAPIToken(key: sim.key, now: { Date().addingTimeInterval(-3600) }), environment: .custom(sim.baseURL),
                retry: .none)
            do {
                _ = try await expired.requestTestNotification()
                Issue.record("an expired token was accepted")
            } catch {
                guard case .api(401, nil, nil, nil)? = error as? AppStoreServerAPIError else { throw error }
            }
            let stranger = SigningKey(
                keyId: "STRANGER01", issuerId: Fixtures.issuerId, bundleId: SimulatorHarness.bundleId, privateKey: P256.Signing.PrivateKey())
            let client = AppStoreServerAPIClient(http: .shared, token: AppStoreServerAPIToken(key: stranger), environment: .custom(sim.baseURL), retry: .none)
            do {
                _ = try await client.requestTestNotification()
                Issue.record("an unregistered key was accepted")
            } catch {
                guard case .api(401, nil, nil, nil)? = error as? AppStoreServerAPIError else { throw error }
            }
        }
    }

    /// A token as Apple's Python library makes it: no `iat`, integer `exp`, keys sorted. Apple accepts it, and
    /// so does the simulator; a token without `iat` that lives longer than 60 minutes from now is refused.
    @Test func tokensWithoutIssuedAtAreAccepted() async throws {
        try await SimulatorHarness.with { sim in
            func token(expiresIn seconds: Int) throws -> String {
                let header = #"{"alg":"ES256","kid":"\#(sim.key.keyId)","typ":"JWT"}"#
                let exp = Int(Date().timeIntervalSince1970) + seconds
                let claims = #"{"aud":"appstoreconnect-v1","bid":"\#(sim.key.bundleId)","exp":\#(exp),"iss":"\#(sim.key.issuerId)"}"#
                let input = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(Data(claims.utf8))
                let signature = try P256.Signing.PrivateKey(pemRepresentation: sim.keyPEM).signature(for: Data(input.utf8))
                return input + "." + Base64URL.encode(signature.rawRepresentation)
            }
            func status(_ token: String) async throws -> UInt {
                var request = HTTPClientRequest(url: sim.baseURL + "/inApps/v1/notifications/test")
                request.method = .POST
                request.headers.add(name: "Authorization", value: "Bearer " + token)
                return try await HTTPClient.shared.execute(request, timeout: .seconds(30)).status.code
            }
            let accepted = try await status(try token(expiresIn: 300))
            #expect(accepted == 200)
            let tooLong = try await status(try token(expiresIn: 2 * 3600))
            #expect(tooLong == 401)
        }
    }
}
