import Foundation

/// A client as plain as they come: it sends a whole request on a new connection, then reads until the
/// server closes it. It does not read while it sends, as Python's urllib and many scripts do, so a
/// server that answers early and closes is seen as what such a client sees: a reset.
enum RawHTTP {
    /// The whole answer as text, or `TimedOut` naming the call that failed (a reset while sending among them).
    static func post(port: Int, path: String, body: [UInt8], headers: [String: String]) async throws -> String {
        let head =
            (["POST \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Content-Length: \(body.count)"] + headers.map { "\($0.key): \($0.value)" })
            .joined(separator: "\r\n") + "\r\n\r\n"
        let request = Array(head.utf8) + body
        // Blocking socket calls, off the cooperative pool.
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result {
                        let connection = try RawConnection(port: port)
                        try connection.send(all: request)
                        return String(decoding: try connection.readToEnd(), as: UTF8.self)
                    })
            }
        }
    }
}
