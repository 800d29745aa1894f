import Foundation
import Storegate
import Testing

/// Data-retention windows as values: the documented defaults, whole minutes from one to 100 years refused
/// outside naming the field, kinds set and the others left, and the cutoff each window makes.
@Suite struct DataRetentionRuleTests {
    @Test func defaultsAreTheDocumentedOnes() {
        let none = DataRetention()
        #expect(none.minutes(.notificationPayloads) == 180 * 1440)
        #expect(none.minutes(.events) == 400 * 1440)
        #expect(none.minutes(.webhookDeliveries) == 30 * 1440)
        #expect(none.minutes(.auditEntries) == 730 * 1440)
        #expect(none.minutes(.consoleSessions) == 30 * 1440)
        #expect(DataRetention.Kind.allCases.allSatisfy { none.isDefault($0) && DataRetention.minutes.contains(none.minutes($0)) })
    }

    @Test func windowsAreWholeMinutesFromOneTo100Years() throws {
        let set = try DataRetention().setting([.events: 1, .auditEntries: 52_560_000])
        #expect(set.minutes(.events) == 1 && set.minutes(.auditEntries) == 52_560_000)
        #expect(set.isDefault(.webhookDeliveries) && !set.isDefault(.events))
        #expect(try set.setting([.webhookDeliveries: 90]).minutes(.events) == 1, "kinds not given stay")
        for (kind, minutes) in [(DataRetention.Kind.events, 0), (.consoleSessions, -1), (.notificationPayloads, 52_560_001)] {
            #expect(throws: StoregateError.invalid(field: "dataRetention." + kind.rawValue, reason: "must be from 1 to 52560000 minutes")) {
                try DataRetention().setting([kind: minutes], field: "dataRetention.")
            }
        }
    }

    @Test func theCutoffIsTheWindowBeforeNow() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let set = try DataRetention().setting([.events: 90])
        #expect(set.cutoff(.events, now: now) == now.addingTimeInterval(-5400))
        #expect(set.cutoff(.auditEntries, now: now) == now.addingTimeInterval(-730 * 86_400))
    }

    @Test func windowsReadForPeople() {
        #expect(DataRetention.describe(minutes: 259_200) == "180 days")
        #expect(DataRetention.describe(minutes: 1500) == "1 day 1 hour")
        #expect(DataRetention.describe(minutes: 1) == "1 minute")
        #expect(DataRetention.describe(minutes: 150) == "2 hours 30 minutes")
    }
}
