import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which URLs events may be sent to. In production: `https` only, to a host whose every address is
/// public, so a tenant cannot make Storegate call into its own network (loopback, private, link-local,
/// shared and reserved ranges are refused). A server started for development (`allowPrivate`) also
/// accepts `http` and any address, for a receiver on the developer's machine.
public struct WebhookURLPolicy: Sendable {
    public let allowPrivate: Bool

    public init(allowPrivate: Bool) { self.allowPrivate = allowPrivate }

    public static let production = WebhookURLPolicy(allowPrivate: false)

    /// The URL, normalised, or an error naming `field`.
    public func validate(_ text: String, field: String = "url") async throws -> String {
        guard text.utf8.count <= 2048, let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            throw StoregateError.invalid(field: field, reason: "must be an absolute https URL")
        }
        guard url.user == nil, url.password == nil else { throw StoregateError.invalid(field: field, reason: "must not carry credentials") }
        guard scheme == "https" || (allowPrivate && scheme == "http") else {
            throw StoregateError.invalid(field: field, reason: allowPrivate ? "must be an https or http URL" : "must be an https URL")
        }
        try await checkAddresses(host: host, field: field)
        return url.absoluteString
    }

    /// Refuses a host that is, or resolves to, a non-public address (unless private ones are allowed);
    /// checked again before each delivery, since what a name resolves to can change.
    public func checkAddresses(host: String, field: String = "url") async throws {
        guard !allowPrivate else { return }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let addresses = try await Self.resolve(bare)
        guard !addresses.isEmpty else { throw StoregateError.invalid(field: field, reason: "host \(bare) does not resolve") }
        if let address = addresses.first(where: { !$0.isPublic }) {
            throw StoregateError.invalid(field: field, reason: "host \(bare) resolves to a non-public address (\(address))")
        }
    }

    /// The host's addresses (getaddrinfo, off the cooperative threads).
    static func resolve(_ host: String) async throws -> [IPAddress] {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                var hints = addrinfo()
                hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
                var result: UnsafeMutablePointer<addrinfo>?
                guard getaddrinfo(host, nil, &hints, &result) == 0 else {
                    continuation.resume(returning: [])
                    return
                }
                defer { freeaddrinfo(result) }
                var addresses: [IPAddress] = []
                var next = result
                while let info = next {
                    if info.pointee.ai_family == AF_INET, let raw = info.pointee.ai_addr {
                        raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin in
                            addresses.append(.v4(withUnsafeBytes(of: sin.pointee.sin_addr) { Array($0) }))
                        }
                    } else if info.pointee.ai_family == AF_INET6, let raw = info.pointee.ai_addr {
                        raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { sin6 in
                            addresses.append(.v6(withUnsafeBytes(of: sin6.pointee.sin6_addr) { Array($0) }))
                        }
                    }
                    next = info.pointee.ai_next
                }
                continuation.resume(returning: addresses)
            }
        }
    }
}

/// An IPv4 or IPv6 address, as bytes.
enum IPAddress: CustomStringConvertible, Equatable {
    case v4([UInt8])
    case v6([UInt8])

    var description: String {
        switch self {
        case .v4(let b): return b.map(String.init).joined(separator: ".")
        case .v6(let b): return stride(from: 0, to: 16, by: 2).map { String(UInt16(b[$0]) << 8 | UInt16(b[$0 + 1]), radix: 16) }.joined(separator: ":")
        }
    }

    /// False for loopback, private (RFC 1918, unique local), link-local, shared (CGNAT), benchmarking,
    /// documentation, multicast, unspecified and reserved addresses; IPv4-mapped and NAT64 IPv6
    /// addresses are judged by the IPv4 address inside.
    var isPublic: Bool {
        switch self {
        case .v4(let b):
            switch (b[0], b[1], b[2]) {
            case (0, _, _), (10, _, _), (127, _, _), (169, 254, _), (192, 168, _), (192, 0, 0), (192, 0, 2), (198, 51, 100), (203, 0, 113): return false
            case (100, 64...127, _), (172, 16...31, _), (198, 18...19, _): return false
            case (224...255, _, _): return false
            default: return true
            }
        case .v6(let b):
            if b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xFF && b[11] == 0xFF { return IPAddress.v4(Array(b[12..<16])).isPublic }
            if b[0..<12] == [0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] { return IPAddress.v4(Array(b[12..<16])).isPublic }
            if b[0..<15].allSatisfy({ $0 == 0 }) { return false }  // :: and ::1
            if b[0] & 0xFE == 0xFC { return false }  // fc00::/7 unique local
            if b[0] == 0xFE && b[1] & 0xC0 == 0x80 { return false }  // fe80::/10 link-local
            if b[0] == 0xFF { return false }  // multicast
            if b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0D && b[3] == 0xB8 { return false }  // 2001:db8::/32 documentation
            return true
        }
    }
}
