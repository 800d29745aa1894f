import Foundation
import PostgresNIO
import Storegate

/// What processes hear of each other's changes: triggers on the control tables (control migration 3)
/// `NOTIFY storegate_changes` with the changed row's tenant id, and a tenant unit that changed customers'
/// holdings notifies `<tenant id> <customer id>` for each (`UnitChanges`); both are delivered when their
/// transaction commits. Tenant schemas have no triggers (see the platform notes on schema-based sharding).
enum ChangeFeed {
    static let channel = "storegate_changes"

    /// A notification's payload as a change; nil for one this build does not know.
    static func change(_ payload: String) -> CacheChange? {
        let parts = payload.split(separator: " ", maxSplits: 1)
        guard let tenant = parts.first.flatMap({ UUID(uuidString: String($0)) }) else { return nil }
        guard parts.count == 2 else { return .tenant(tenant) }
        return UUID(uuidString: String(parts[1])).map { .holdings(tenant: tenant, customer: $0) }
    }

    /// The notifications stopped without an error: the task was cancelled.
    struct Ended: Error, CustomStringConvertible {
        var description: String { "the change feed ended" }
    }
}

extension PostgresPersistence {
    /// Listens on one of the pool's connections for as long as the task runs. The pool replaces a
    /// connection that is lost; the sequence then ends with an error and the caller listens again.
    public func followChanges(listening: @Sendable () -> Void, changed: @Sendable (CacheChange) -> Void) async throws {
        try await client.withConnection { conn in
            do {
                try await conn.listen(on: ChangeFeed.channel) { notifications in
                    listening()
                    for try await notification in notifications {
                        if let change = ChangeFeed.change(notification.payload) { changed(change) }
                    }
                }
            } catch {
                // The notifications fail as soon as PostgreSQL says it ends the backend, before the
                // connection has closed. Released now, the pool could lease it out while it closes, and
                // a statement written to it then is never answered: so it is closed first.
                if !(error is CancellationError) { try? await conn.close() }
                throw error
            }
        }
        throw ChangeFeed.Ended()
    }
}
