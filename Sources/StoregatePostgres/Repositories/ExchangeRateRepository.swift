import Foundation
import PostgresNIO
import Storegate

/// The operator's exchange rates (control migration 13).
struct ExchangeRateRepository: ExchangeRateStore {
    let conn: PostgresConnection
    let logger: Logger

    /// One statement for all of them; rates travel as text, so every digit given is kept.
    func load(_ rates: [ExchangeRate]) async throws {
        guard !rates.isEmpty else { return }
        _ = try await conn.query(
            """
            INSERT INTO storegate.exchange_rates (target, currency, day, rate)
            SELECT r.target, r.currency, (r.day AT TIME ZONE 'UTC')::date, r.rate::numeric
            FROM unnest(\(rates.map(\.target))::text[], \(rates.map(\.currency))::text[], \(rates.map(\.day))::timestamptz[],
                        \(rates.map { "\($0.rate)" })::text[]) AS r(target, currency, day, rate)
            ON CONFLICT (target, currency, day) DO UPDATE SET rate = excluded.rate, loaded_at = now()
            """, logger: logger)
    }

    func rates(target: String, currencies: [String], through: Date) async throws -> [ExchangeRate] {
        var out: [ExchangeRate] = []
        let rows = try await conn.query(
            """
            SELECT target, currency, day::timestamptz, rate::text FROM storegate.exchange_rates
            WHERE target = \(target) AND currency = ANY(\(currencies)::text[]) AND day <= (\(through)::timestamptz AT TIME ZONE 'UTC')::date
            ORDER BY day
            """, logger: logger)
        for try await (target, currency, day, rate) in rows.decode((String, String, Date, String).self) {
            out.append(ExchangeRate(target: target, currency: currency, day: day, rate: Decimal(string: rate) ?? 0))
        }
        return out
    }
}
