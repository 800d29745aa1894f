import Contract

/// How many items one answer of a list holds: `standard` when the caller does not say, at most `maximum`.
/// Each list declares its own once, next to the service that answers it; the RPC documents and checks it
/// (`Rule.page`), and the service applies it, so the CLI and the console get the same.
public struct PageSize: Sendable {
    public let standard: Int
    public let maximum: Int

    public init(standard: Int, maximum: Int) {
        self.standard = standard
        self.maximum = maximum
    }

    /// The number asked for (`limit`), or the standard one when none was.
    func limit(_ asked: Int?) throws(StoregateError) -> Int {
        guard let asked else { return standard }
        guard (1...maximum).contains(asked) else { throw .invalid(field: "limit", reason: "must be from 1 to \(maximum)") }
        return asked
    }
}

extension Rule {
    /// A list's `limit`: 1 to its maximum, its standard size when absent.
    public static func page(_ size: PageSize) -> Rule { .range(1...Int64(size.maximum), default: Int64(size.standard)) }
}
