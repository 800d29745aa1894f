import AppStoreServer
import Foundation
import PostgresNIO
import Storegate

/// The state of the scheduled notification sweeps, in the tenant's schema (tenant migration 16).
struct NotificationSweepRepository: NotificationSweepStore {
    let scope: TenantScope
    var schema: String { scope.sql }

    static let columns = "app_id, environment, swept_until, last_run_at, runs, found, applied, failed, last_error"

    func find(appId: UUID, environment: AppStoreEnvironment) async throws -> NotificationSweep? {
        try await scope.all(
            "SELECT \(unescaped: Self.columns) FROM \(unescaped: schema).notification_sweeps WHERE app_id = \(appId) AND environment = \(environment.rawValue)",
            Self.sweep
        ).first
    }

    func record(appId: UUID, environment: AppStoreEnvironment, until: Date, report: NotificationIngest.BackfillReport, error: String?) async throws {
        let failed = report.rejected + (error == nil ? 0 : 1)
        try await scope.run(
            """
            INSERT INTO \(unescaped: schema).notification_sweeps AS w (app_id, environment, swept_until, last_run_at, runs, found, applied, failed, last_error)
            VALUES (\(appId), \(environment.rawValue), \(until), now(), 1, \(report.seen), \(report.stored), \(failed), \(error))
            ON CONFLICT (app_id, environment) DO UPDATE SET
                swept_until = greatest(w.swept_until, excluded.swept_until), last_run_at = excluded.last_run_at, runs = w.runs + 1,
                found = w.found + excluded.found, applied = w.applied + excluded.applied, failed = w.failed + excluded.failed,
                last_error = excluded.last_error
            """)
    }

    func list() async throws -> [NotificationSweep] {
        try await scope.all("SELECT \(unescaped: Self.columns) FROM \(unescaped: schema).notification_sweeps ORDER BY app_id, environment", Self.sweep)
    }

    static func sweep(_ row: PostgresRow) throws -> NotificationSweep {
        let r = try row.decode((UUID, String, Date, Date, Int64, Int64, Int64, Int64, String?).self)
        return NotificationSweep(
            appId: r.0, environment: AppStoreEnvironment(rawValue: r.1), sweptUntil: r.2, lastRunAt: r.3, runs: r.4, found: r.5, applied: r.6,
            failed: r.7, lastError: r.8)
    }
}

extension PostgresTenantUnit {
    var sweeps: any NotificationSweepStore { NotificationSweepRepository(scope: scope) }
}
