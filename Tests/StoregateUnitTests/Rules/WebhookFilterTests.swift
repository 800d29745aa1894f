import AppStoreServer
import Foundation
import Testing

@testable import Storegate

/// Which events an endpoint receives: its types, app and environment filters, each open when unset.
@Suite struct WebhookFilterTests {
    static let app = UUID()

    static func endpoint(_ types: [Event.Kind] = [], appId: UUID? = nil, environment: AppStoreEnvironment? = nil) -> WebhookEndpoint {
        WebhookEndpoint(
            id: UUID(), tenantId: UUID(), url: "https://example.com/hook", description: "", eventTypes: types, appId: appId, environment: environment,
            failingSince: nil, createdAt: Date())
    }

    @Test func anEndpointWithNoFilterReceivesEveryEventOfTheTenant() {
        let all = Self.endpoint()
        #expect(all.receives(.purchaseCreated, appId: Self.app, environment: .sandbox))
        #expect(all.receives(.accountLinked, appId: nil, environment: nil))
    }

    @Test func eventTypesNarrowToThoseTypes() {
        let refunds = Self.endpoint([.refundGranted, .refundReversed])
        #expect(refunds.receives(.refundGranted, appId: Self.app, environment: .production))
        #expect(refunds.receives(.refundReversed, appId: Self.app, environment: .production))
        #expect(!refunds.receives(.refundDeclined, appId: Self.app, environment: .production))
    }

    @Test func anAppFilterTakesThatAppsEventsAndNotTheTenantsOwn() {
        let one = Self.endpoint(appId: Self.app)
        #expect(one.receives(.purchaseCreated, appId: Self.app, environment: .sandbox))
        #expect(!one.receives(.purchaseCreated, appId: UUID(), environment: .sandbox))
        #expect(!one.receives(.accountLinked, appId: nil, environment: nil))
    }

    @Test func anEnvironmentFilterTakesThatEnvironmentOnly() {
        let production = Self.endpoint(environment: .production)
        #expect(production.receives(.purchaseCreated, appId: Self.app, environment: .production))
        #expect(!production.receives(.purchaseCreated, appId: Self.app, environment: .sandbox))
        #expect(!production.receives(.accountLinked, appId: Self.app, environment: nil))
    }

    @Test func everyFilterMustHold() {
        let narrow = Self.endpoint([.subscriptionUpdated], appId: Self.app, environment: .sandbox)
        #expect(narrow.receives(.subscriptionUpdated, appId: Self.app, environment: .sandbox))
        #expect(!narrow.receives(.purchaseCreated, appId: Self.app, environment: .sandbox))
        #expect(!narrow.receives(.subscriptionUpdated, appId: UUID(), environment: .sandbox))
        #expect(!narrow.receives(.subscriptionUpdated, appId: Self.app, environment: .production))
    }
}
