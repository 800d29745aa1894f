import Hummingbird
import NIOCore

extension Request {
    /// Most bytes read and dropped past a body's limit before the connection is given up.
    static let drainedAtMost = 64 << 20

    /// The body, when it is at most `limit` bytes; nil when it is larger, once the rest has been read and
    /// dropped (up to `drainedAtMost` more). Answering before the rest is read would close the connection
    /// under a client still sending (one that sent `Connection: close`, as Python's urllib does, or reads
    /// only once it has sent everything), which then sees a reset instead of the 413.
    func collectBody(upTo limit: Int) async throws -> ByteBuffer? {
        var collected = ByteBuffer()
        var dropped = 0
        for try await part in body {
            if dropped == 0, collected.readableBytes + part.readableBytes <= limit {
                collected.writeImmutableBuffer(part)
                continue
            }
            dropped += part.readableBytes
            if dropped > Self.drainedAtMost { break }
        }
        return dropped == 0 ? collected : nil
    }
}
