import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A plain TCP connection to the test server, to behave as no HTTP client would.
final class RawConnection {
    let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { throw TimedOut(description: "cannot connect to 127.0.0.1:\(port)") }
    }

    deinit { close(fd) }

    func send(_ text: String) throws {
        let sent = text.utf8CString.withUnsafeBufferPointer { Glibc.send(fd, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
        guard sent >= 0 else { throw TimedOut(description: "send failed: the server closed the connection") }
    }

    /// Sends all of `bytes`, however many calls it takes; fails naming how far it got (a reset while sending).
    func send(all bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw TimedOut(description: "send failed after \(sent) of \(bytes.count) bytes: errno \(errno)") }
            sent += n
        }
    }

    /// Everything the server sends until it closes the connection; a read waits 30 s at most (a server that
    /// never answers would otherwise hold the test forever).
    func readToEnd() throws -> [UInt8] {
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return answer }
            guard n > 0 else { throw TimedOut(description: "recv failed after \(answer.count) bytes: errno \(errno)") }
            answer += buffer[..<n]
        }
    }

    /// Whether the server closes the connection (a read returns end of file) within `limit`.
    func waitForClose(upTo limit: Duration) -> Bool {
        var pollfd = Glibc.pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(limit.components.seconds * 1000 + limit.components.attoseconds / 1_000_000_000_000_000)
        guard poll(&pollfd, 1, milliseconds) == 1 else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, 0) <= 0
    }
}
