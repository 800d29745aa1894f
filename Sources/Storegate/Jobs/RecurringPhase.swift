import Foundation

/// When a recurring job (an app's notification sweep, a tenant's data retention) runs next: at its own
/// point of the interval, taken from its key, so that each app's or tenant's job keeps its place instead of
/// falling due with all the others. Scheduled "now + interval", the 10,002 sweeps of a database of 10,000
/// tenants stayed together as they first ran, and every interval the worker ran them first, oldest due
/// first, before the notifications that arrived with them (a restarted server applied nothing for 10 s).
enum RecurringPhase {
    /// The first time at `key`'s point of the interval that is at least half an interval after `now` (so
    /// the gap between two runs is between half an interval and one and a half; one on average).
    static func next(after now: Date, every: TimeInterval, key: String) -> Date {
        guard every > 0 else { return now }
        let phase = Double(fnv1a(key) % 1_000_000) / 1_000_000 * every
        let runs = ((now.timeIntervalSince1970 + every / 2 - phase) / every).rounded(.up)
        return Date(timeIntervalSince1970: phase + runs * every)
    }

    /// FNV-1a of the key's UTF-8: the same in every process, unlike `Hasher`.
    static func fnv1a(_ key: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }
}
