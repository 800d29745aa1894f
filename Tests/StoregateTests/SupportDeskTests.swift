import AppStoreServer
import AppStoreSimulator
import Foundation
import Storegate
import Testing

/// What support staff do for a customer: find them by the order ID on their App Store invoice.
@Suite(.serialized) struct SupportDeskTests {
    static func errorData(_ reply: [String: Any]) -> (code: Int?, field: String?) {
        let error = reply["error"] as? [String: Any]
        return (error?["code"] as? Int, (error?["data"] as? [String: Any])?["field"] as? String)
    }

    /// An in-app purchase Storegate never heard of: its order ID looked up for a customer keeps the order
    /// with its transaction, linked to the customer, and the customer is found by the order ID later.
    @Test func anOrderIdLookedUpIsKeptAndResolvesToItsCustomer() async throws {
        try await Storefront.with(slug: "orders", sendNotifications: false) { s in
            let coins = await s.store.purchase(
                SimulatorStore.Purchase(customer: "dee-device", bundleId: Storefront.bundleId, productId: "com.example.coins", type: .consumable))
            let orderId = try #require(await s.store.orderId(of: coins.transactionId ?? ""))
            let unknown = try await s.call("accounts.resolve", ["orderId": orderId])
            #expect(Self.errorData(unknown).field == "orderId", "not looked up yet")

            let order = try await s.result("refunds.lookupOrder", ["bundleId": Storefront.bundleId, "orderId": orderId, "customerId": "dee"])
            #expect(order["status"] as? String == "valid")
            #expect(order["customerId"] as? String == "dee")
            #expect((order["transactions"] as? [[String: Any]])?.map { $0["transactionId"] as? String } == [coins.transactionId])

            let resolved = try await s.result("accounts.resolve", ["orderId": orderId])
            #expect(resolved["customerId"] as? String == "dee")
            let inApp = try await s.result("accounts.resolve", ["orderId": orderId, "bundleId": Storefront.bundleId])
            #expect(inApp["customerId"] as? String == "dee")
            let byTransaction = try await s.result("accounts.resolve", ["transactionId": coins.transactionId ?? "", "bundleId": Storefront.bundleId])
            #expect(byTransaction["customerId"] as? String == "dee", "the transaction itself is stored and linked")

            // A purchase made with a customer's appAccountToken belongs to that customer, whoever asks.
            let eve = try await s.result("accounts.ensure", ["customerId": "eve"])
            let token = try #require(UUID(uuidString: eve["appAccountToken"] as? String ?? ""))
            let lifetime = await s.store.purchase(
                SimulatorStore.Purchase(
                    customer: "eve-device", bundleId: Storefront.bundleId, productId: "com.example.lifetime", type: .nonConsumable, appAccountToken: token))
            let eveOrder = try #require(await s.store.orderId(of: lifetime.transactionId ?? ""))
            let found = try await s.result("refunds.lookupOrder", ["bundleId": Storefront.bundleId, "orderId": eveOrder, "customerId": "dee"])
            #expect(found["customerId"] as? String == "eve", "Apple's data names the owner")
            #expect(try await s.result("accounts.resolve", ["orderId": eveOrder])["customerId"] as? String == "eve")

            // An order Apple does not know changes nothing; bad input is refused, naming the field.
            let invalid = try await s.result("refunds.lookupOrder", ["bundleId": Storefront.bundleId, "orderId": "NOSUCHORDER", "customerId": "fay"])
            #expect(invalid["status"] as? String == "invalid")
            #expect(invalid["customerId"] == nil || invalid["customerId"] is NSNull)
            let fay = try await s.call("entitlements.list", ["customerId": "fay"])
            #expect(Self.errorData(fay).field == "customerId", "no customer was made for an invalid order")
            #expect(Self.errorData(try await s.call("refunds.lookupOrder", ["bundleId": Storefront.bundleId, "orderId": "MK-1"])) == (-32602, "orderId"))
            #expect(Self.errorData(try await s.call("accounts.resolve", ["orderId": "MK 1"])) == (-32602, "orderId"))
            #expect(
                Self.errorData(try await s.call("accounts.resolve", ["orderId": orderId, "transactionId": "1", "bundleId": Storefront.bundleId])).code == -32602
            )
        }
    }
}
