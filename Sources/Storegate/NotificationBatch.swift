import Foundation

extension NotificationProcessor {
    /// Applies stored notifications of one tenant together: read in one unit, then applied in one
    /// transaction that locks them once, marks them processed once and completes their jobs once, with
    /// one statement per change in between. Each is applied exactly once, as `process` would: one already
    /// applied (here or by another worker) is skipped, and its job completed.
    ///
    /// Returns the notifications to try again later, with why (a verification failure that may pass);
    /// every other one was applied now or before. Throws when the batch as a whole failed: then nothing of
    /// it was kept, and each can still be applied on its own.
    public func process(tenant: Tenant, notificationUUIDs uuids: [UUID]) async throws -> [UUID: any Error] {
        let (pending, apps) = try await persistence.inTenant(tenant, .read) { unit in
            (try await unit.notifications.unprocessed(uuids), try await unit.apps.list())
        }
        let appsById = Dictionary(apps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var ready: [Ready] = []
        var later: [UUID: any Error] = [:]
        for stored in pending {
            do {
                ready.append(try await prepare(stored, app: appsById[stored.appId]))
            } catch {
                later[stored.notificationUUID] = error
            }
        }
        let settled = uuids.filter { later[$0] == nil }
        try await persistence.inTenant(tenant) { unit in
            let unapplied = try await unit.notifications.lockUnprocessed(ready.map(\.stored.notificationUUID))
            var processed: [(UUID, String?)] = []
            for notification in ready where unapplied.contains(notification.stored.notificationUUID) {
                try await apply(notification, in: unit)
                processed.append((notification.stored.notificationUUID, notification.problem))
            }
            try await unit.notifications.markProcessed(processed)
            try await unit.completeJobs(.processNotification, refs: settled.map(\.uuidString))
        }
        return later
    }
}
