import Foundation
import Hummingbird

/// A form's fields, `application/x-www-form-urlencoded` (`+` a space, then percent-decoded): a posted body
/// of at most 16 KiB, or a GET form's query. Fields by name (the last value wins), trimmed of surrounding
/// spaces.
struct Form: Sendable {
    static let maxBytes = 16 * 1024
    private let fields: [String: String]

    init(_ request: Request) async throws {
        let body = try await request.body.collect(upTo: Self.maxBytes)
        self.init(String(buffer: body))
    }

    /// A GET form: the request's query (Hummingbird's `queryParameters` leaves `+` as it is).
    init(query request: Request) {
        self.init(request.uri.query ?? "")
    }

    init(_ text: String) {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]) else { continue }
            fields[name] = parts.count > 1 ? Self.decode(parts[1]) : ""
        }
        self.fields = fields
    }

    /// The field's value, nil when absent or empty.
    subscript(_ name: String) -> String? {
        guard let value = fields[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }

    /// The field as it was posted (passwords are not trimmed).
    func raw(_ name: String) -> String? { fields[name] }

    func flag(_ name: String) -> Bool { self[name] == "true" }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
