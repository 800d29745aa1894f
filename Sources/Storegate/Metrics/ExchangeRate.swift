import Foundation

/// What one unit of `currency` is worth in `target` from `day` on (until a later day's rate), as the
/// operator loads it (`storegate rates load`).
public struct ExchangeRate: Sendable, Equatable {
    public let target: String
    public let currency: String
    /// UTC midnight.
    public let day: Date
    /// As given, decimal digits.
    public let rate: Decimal

    public init(target: String, currency: String, day: Date, rate: Decimal) {
        self.target = target
        self.currency = currency
        self.day = day
        self.rate = rate
    }

    /// Rates from CSV text with the header `date,currency,target,rate` (`2026-11-01,EUR,USD,1.0812`): each
    /// line checked, a bad one refused with its number.
    public static func parse(csv: String) throws -> [ExchangeRate] {
        var lines = csv.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard lines.first?.lowercased().replacingOccurrences(of: " ", with: "") == "date,currency,target,rate" else {
            throw StoregateError.invalid(field: "line 1", reason: "must be the header date,currency,target,rate")
        }
        lines.removeFirst()
        return try lines.enumerated().map { index, line in
            let field = "line \(index + 2)"
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 4 else { throw StoregateError.invalid(field: field, reason: "must have 4 cells: date,currency,target,rate") }
            guard let day = try? Date(cells[0] + "T00:00:00Z", strategy: .iso8601) else {
                throw StoregateError.invalid(field: field, reason: "date must be YYYY-MM-DD")
            }
            for code in cells[1...2] where !(code.count == 3 && code.allSatisfy { $0.isASCII && $0.isUppercase }) {
                throw StoregateError.invalid(field: field, reason: "\(code) is not an ISO 4217 code such as USD")
            }
            guard let rate = Decimal(string: cells[3], locale: Locale(identifier: "en_US_POSIX")), rate > 0, cells[3].allSatisfy({ $0.isNumber || $0 == "." })
            else { throw StoregateError.invalid(field: field, reason: "rate must be a positive decimal such as 1.0812") }
            return ExchangeRate(target: cells[2], currency: cells[1], day: day, rate: rate)
        }
    }
}

public protocol ExchangeRateStore: Sendable {
    /// Adds rates; a rate for the same target, currency and day replaces the one there.
    func load(_ rates: [ExchangeRate]) async throws
    /// The rates into `target` of `currencies` up to `through`, oldest first.
    func rates(target: String, currencies: [String], through: Date) async throws -> [ExchangeRate]
}
