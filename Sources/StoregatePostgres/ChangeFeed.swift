import Foundation
import PostgresNIO
import Storegate

/// What processes hear of each other's changes: triggers on the control tables (control migration 3)
/// `NOTIFY storegate_changes` with the changed row's tenant id, delivered when its transaction commits.
/// Tenant schemas have no triggers (see the platform notes on schema-based sharding).
enum ChangeFeed {
    static let channel = "storegate_changes"

    /// The notifications stopped without an error: the task was cancelled.
    struct Ended: Error, CustomStringConvertible {
        var description: String { "the change feed ended" }
    }
}

extension PostgresPersistence {
    /// Listens on one of the pool's connections for as long as the task runs. The pool replaces a
    /// connection that is lost; the sequence then ends with an error and the caller listens again.
    public func followChanges(listening: @Sendable () -> Void, changed: @Sendable (UUID) -> Void) async throws {
        try await client.withConnection { conn in
            do {
                try await conn.listen(on: ChangeFeed.channel) { notifications in
                    listening()
                    for try await notification in notifications {
                        if let tenantId = UUID(uuidString: notification.payload) { changed(tenantId) }
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
