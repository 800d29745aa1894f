import AppStoreServer
import Foundation
import JSONRPC
import Testing

@testable import Storegate
@testable import StoregateServer

/// Results on the hot path (`tenant.get`, `subscriptions.status`) are written without `JSONEncoder`, straight
/// to bytes: exactly what it would write, dates included.
@Suite struct ResultWritingTests {
    let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    func encoded(_ date: Date) throws -> String {
        let text = String(decoding: try encoder.encode([date]), as: UTF8.self)
        return String(text.dropFirst(2).dropLast(2))
    }

    /// What the method writes: member by member, no `JSONValue` in between.
    func written(_ result: some JSONValueConvertible) -> [UInt8] {
        var out: [UInt8] = []
        result.writeJSON(to: &out)
        return out
    }

    @Test func datesAreWrittenAsJSONEncoderWritesThem() throws {
        var dates = [
            0, -1, -0.5, 0.999, 59.999_999, 86_399.5, 86_400, -86_400, -86_401, 951_782_400, 1_800_000_000.123_456, 4_102_444_800,
            -62_135_596_800, -12_219_292_801, -12_212_553_600.5, -12_212_553_600, 253_402_300_799.9, 253_402_300_800, -2_208_988_800, 1_709_164_800,
        ].map { Date(timeIntervalSince1970: $0) }
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2000 { dates.append(Date(timeIntervalSince1970: Double.random(in: -62_135_596_800..<253_402_300_800, using: &random))) }
        for _ in 0..<2000 { dates.append(Date(timeIntervalSince1970: Double.random(in: 0..<4_102_444_800, using: &random).rounded(.down))) }
        for date in dates {
            #expect(InternetDateTime.string(date) == (try encoded(date)), "\(date.timeIntervalSince1970)")
            var written: [UInt8] = []
            _ = Date.write(date, to: &written)
            #expect(String(decoding: written, as: UTF8.self) == "\"" + (try encoded(date)) + "\"", "\(date.timeIntervalSince1970)")
        }
    }

    @Test func integersAreWrittenAsJSONEncoderWritesThem() throws {
        let values: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, 1_234_567_890, Int64(Int32.max), Int64(Int32.min), .max, .min, .max - 1, .min + 1]
        for value in values {
            var written: [UInt8] = []
            _ = Int64.write(value, to: &written)
            #expect(written == Array(try encoder.encode(value)), "\(value)")
        }
        for value in [Int32.min, -7, 0, 42, Int32.max] {
            var written: [UInt8] = []
            _ = Int32.write(value, to: &written)
            #expect(written == Array(try encoder.encode(value)), "\(value)")
        }
    }

    @Test func aTenantIsWhatJSONEncoderWrites() throws {
        let tenant = Tenant(
            id: UUID(), slug: "acme", name: "Acme \"Games\" / Ünïcode\n", storageName: "t_abc", status: .suspended, schemaVersion: 1,
            createdAt: Date(timeIntervalSince1970: 1_800_000_000.654_321))
        let view = TenantView(tenant)
        #expect(written(view) == Array(try encoder.encode(view)))
    }

    @Test func subscriptionStatusIsWhatJSONEncoderWrites() throws {
        let now = Subscriptions.now
        let states = [
            Subscriptions.committed(), Subscriptions.committed(.billingRetry, renews: nil), Subscriptions.subscription(offer: .promotionalOffer),
            Subscriptions.subscription(.billingGracePeriod, grace: 3 * Subscriptions.day),
        ]
        .map { SubscriptionState($0, now: now) }
        let result = SubscriptionMethods.StatusResult(subscriptions: states.map { SubscriptionStatus($0, bundleId: "com.example.app") })
        #expect(written(result) == Array(try encoder.encode(result)))
        let empty = SubscriptionMethods.StatusResult(subscriptions: [])
        #expect(written(empty) == Array(try encoder.encode(empty)))
    }
}
