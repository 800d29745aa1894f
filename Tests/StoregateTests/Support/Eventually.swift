import Foundation
import Testing

/// What a test waited for and never saw.
struct TimedOut: Error, CustomStringConvertible {
    let description: String
}

/// Polls `condition` (notifications and jobs arrive asynchronously) until it holds. A timeout fails the test,
/// naming what was awaited: never a silent pass into assertions that then fail for another reason. The
/// default bound only decides how long a failing test takes; a test that claims a time passes its own.
func eventually(
    _ what: String, timeout: Duration = .seconds(120), sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    if try await condition() { return }
    Issue.record("timed out after \(timeout) waiting for \(what)", sourceLocation: sourceLocation)
    throw TimedOut(description: "timed out after \(timeout) waiting for \(what)")
}
