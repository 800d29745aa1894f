import AppStoreServer
import Foundation
import KeyVault

/// Where notifications from Apple's webhook wait, across tenants, from their acknowledgement until their
/// tenant's processing job takes them in (`NotificationStore.takeFromInbox`). Every notification in it has its
/// `processNotification` job: a job is completed only in a transaction that takes its notification in.
public protocol NotificationInbox: Sendable {
    /// Puts a notification for `tenantId` in the inbox unless it is waiting there already, and with it (in
    /// the same statement) its `processNotification` job due at `due`; returns whether it was new. One found
    /// there is written again (unchanged): a duplicate is answered only after a commit that waits for the
    /// synchronous standby, so it cannot be a row the primary recovered as committed after a crash while
    /// the standby never had it (PostgreSQL marks such commits done on restart).
    func receive(_ notification: StoredNotification, tenantId: UUID, processingDue due: Date) async throws -> Bool
    /// `receive` for several notifications (each once at most) in one statement: whether each was new, in order.
    func receive(_ notifications: [(StoredNotification, tenantId: UUID)], processingDue due: Date) async throws -> [Bool]
}
public protocol NotificationStore: Sendable {
    /// Stores a notification unless one with its UUID is there, and with it (in the same statement) its
    /// `processNotification` job due at `due`; returns whether it was new. One found is written again, as
    /// in `NotificationInbox.receive`, so that "already stored" is known to the standby too.
    func insert(_ notification: StoredNotification, processingDue due: Date) async throws -> Bool
    /// Takes these of the tenant's notifications from the inbox into its own, in one statement; one it
    /// has already (Apple delivered it again) is dropped. Only a processing unit does, holding their jobs'
    /// claims: it takes them in before it locks them, and again once it completed their jobs, so that a
    /// delivery Apple repeated while it ran, whose job it then completed, is dropped rather than left
    /// without a job.
    func takeFromInbox(_ uuids: [UUID]) async throws
    /// The newest first, those waiting in the inbox included.
    func list(appId: UUID?, limit: Int) async throws -> [StoredNotification]
    /// Of these notifications, the ones not yet processed, in the tenant's data or its inbox, oldest first.
    func unprocessed(_ uuids: [UUID]) async throws -> [StoredNotification]
    /// Locks these notifications for the unit of work; returns the ones not yet processed.
    func lockUnprocessed(_ uuids: [UUID]) async throws -> Set<UUID>
    /// Marks each notification processed, with its error if any and the purchase series it was about
    /// ('' when about none, nil when not known), which an erasure finds it by.
    func markProcessed(_ outcomes: [(notificationUUID: UUID, error: String?, originalTransactionId: String?)]) async throws
    /// Which of these UUIDs are stored already, in the tenant's data or the inbox.
    func existing(_ uuids: [UUID]) async throws -> Set<UUID>
}
/// What the scheduled sweeps of Apple's notification history did, per app and environment.
public protocol NotificationSweepStore: Sendable {
    /// The state of the app's sweep in `environment`, nil before the first.
    func find(appId: UUID, environment: AppStoreEnvironment) async throws -> NotificationSweep?
    /// Records a sweep: how far it looked, and what it found, applied and failed on.
    func record(appId: UUID, environment: AppStoreEnvironment, until: Date, report: NotificationIngest.BackfillReport, error: String?) async throws
    func list() async throws -> [NotificationSweep]
}
