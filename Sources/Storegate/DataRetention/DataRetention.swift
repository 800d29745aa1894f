import Contract
import Foundation

/// How long a tenant keeps each kind of data that grows without end, in whole minutes: what the tenant
/// set (its manifest or `dataRetention.set`), else the documented default. The data-retention job
/// deletes what is older (`DataRetentionService`).
public struct DataRetention: Sendable, Equatable {
    /// What a window applies to, and what deleting it means.
    public enum Kind: String, Sendable, CaseIterable, Codable {
        /// A processed notification's raw `signedPayload`: dropped, the row kept (it is the duplicate check,
        /// and its decoded facts live on in transactions, subscriptions and events).
        case notificationPayloads
        /// Events (`events.list`, the webhook bodies): deleted with their webhook deliveries.
        case events
        /// Finished webhook deliveries (delivered or given up) with their attempts; pending ones are retried.
        case webhookDeliveries
        /// The tenant's audit log entries.
        case auditEntries
        /// Console sessions that ended (expired or signed out).
        case consoleSessions
    }

    /// The shortest and longest window: one minute, and 100 years. There is no "forever": 100 years is it.
    public static let minutes: ClosedRange<Int> = 1...52_560_000

    /// The windows a tenant has when it set none, and why:
    /// - notification payloads, 180 days: Apple's notification history reaches back 180 days, so a payload
    ///   older than that cannot be asked of Apple again either, and none is needed to apply it twice;
    /// - events, 400 days: a year of `events.list` and webhook replays, with a month to spare for yearly
    ///   subscriptions renewed late;
    /// - webhook deliveries, 30 days: long enough to see why a receiver failed and to redeliver;
    /// - audit entries, 730 days: two years, a common period for security logs (and beyond a yearly audit);
    /// - ended console sessions, 30 days: who was signed in recently, for a support incident.
    public static let defaults: [Kind: Int] = [
        .notificationPayloads: 180 * 1440, .events: 400 * 1440, .webhookDeliveries: 30 * 1440, .auditEntries: 730 * 1440,
        .consoleSessions: 30 * 1440,
    ]

    /// The windows the tenant set; a kind absent has its default.
    public private(set) var set: [Kind: Int]

    public init(_ set: [Kind: Int] = [:]) {
        self.set = set
    }

    /// The window in force for `kind`, in minutes.
    public func minutes(_ kind: Kind) -> Int { set[kind] ?? Self.defaults[kind]! }

    /// Whether `kind` has its default window (none was set).
    public func isDefault(_ kind: Kind) -> Bool { set[kind] == nil }

    /// Where rows of `kind` stop being kept: older than this is deleted.
    public func cutoff(_ kind: Kind, now: Date) -> Date { now.addingTimeInterval(-Double(minutes(kind)) * 60) }

    /// These windows with `changes` set, each checked; `field` names the place of the windows in the caller's
    /// input (`dataRetention.` in a manifest, empty over RPC).
    public func setting(_ changes: [Kind: Int], field: String = "") throws(StoregateError) -> DataRetention {
        var next = self
        for kind in Kind.allCases {
            guard let minutes = changes[kind] else { continue }
            guard Self.minutes.contains(minutes) else {
                throw .invalid(field: field + kind.rawValue, reason: "must be from \(Self.minutes.lowerBound) to \(Self.minutes.upperBound) minutes")
            }
            next.set[kind] = minutes
        }
        return next
    }

    /// A window for people: "180 days", "1 day 2 hours", "90 minutes".
    public static func describe(minutes: Int) -> String {
        let (days, hours, rest) = (minutes / 1440, minutes % 1440 / 60, minutes % 60)
        var parts: [String] = []
        if days > 0 { parts.append(days == 1 ? "1 day" : "\(days) days") }
        if hours > 0 { parts.append(hours == 1 ? "1 hour" : "\(hours) hours") }
        if rest > 0 { parts.append(rest == 1 ? "1 minute" : "\(rest) minutes") }
        return parts.joined(separator: " ")
    }
}

/// The API shows the kinds as the JSON Schema `enum`.
extension DataRetention.Kind: JSONSchemaType {}
