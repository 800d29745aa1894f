import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A client as plain as they come: it sends a whole request on a new connection, then reads until the
/// server closes it. It does not read while it sends, as Python's urllib and many scripts do, so a
/// server that answers early and closes is seen as what such a client sees: a reset.
enum RawHTTP {
    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    /// The whole answer as text, or `Failed` naming the call that failed (a reset while sending among them).
    static func post(port: Int, path: String, body: [UInt8], headers: [String: String]) async throws -> String {
        let head =
            (["POST \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Content-Length: \(body.count)"] + headers.map { "\($0.key): \($0.value)" })
            .joined(separator: "\r\n") + "\r\n\r\n"
        let request = Array(head.utf8) + body
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try exchange(port: port, request: request) })
            }
        }
    }

    private static func exchange(port: Int, request: [UInt8]) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failed(description: "socket: errno \(errno)") }
        defer { close(fd) }
        // Reads give up after 30 s: a server that never answers would otherwise hold the test forever.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failed(description: "connect: errno \(errno)") }
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failed(description: "send failed after \(sent) of \(request.count) bytes: errno \(errno)") }
            sent += n
        }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { break }
            guard n > 0 else { throw Failed(description: "recv failed after \(answer.count) bytes: errno \(errno)") }
            answer += buffer[..<n]
        }
        return String(decoding: answer, as: UTF8.self)
    }
}
