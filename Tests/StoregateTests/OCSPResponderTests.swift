import AppStoreServer
import AppStoreSimulator
import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import SwiftASN1
import Testing
import X509

#if canImport(Glibc)
    import Glibc
#endif

/// Revocation checked online, as `storegate serve` does: against OpenSSL's own OCSP responder (an
/// independent implementation) answering good and revoked, and against one that never answers.
@Suite(.serialized, .timeLimit(.minutes(10))) struct OCSPResponderTests {
    /// `openssl ocsp` answering for the certificates `issuer` issued, from an index of their statuses.
    final class Responder: Sendable {
        let port: Int
        let process: Subprocess
        let directory: URL

        init(issuer: Certificate, key: P256.Signing.PrivateKey, statuses: [(Certificate, revoked: Bool)], port: Int) async throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocsp-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let stamp = Date().addingTimeInterval(-3600)
            let format = DateFormatter()
            format.dateFormat = "yyMMddHHmmss'Z'"
            format.timeZone = TimeZone(identifier: "UTC")
            let index =
                statuses.map { certificate, revoked in
                    let serial = Array(certificate.serialNumber.bytes.drop { $0 == 0 }).map { String(format: "%02X", $0) }.joined()
                    let expiry = format.string(from: certificate.notValidAfter)
                    return [revoked ? "R" : "V", expiry, revoked ? format.string(from: stamp) : "", serial, "unknown", "/CN=test"].joined(separator: "\t")
                }.joined(separator: "\n") + "\n"
            try index.write(to: directory.appendingPathComponent("index.txt"), atomically: true, encoding: .utf8)
            try issuer.serializeAsPEM().pemString.write(to: directory.appendingPathComponent("ca.pem"), atomically: true, encoding: .utf8)
            try key.pemRepresentation.write(to: directory.appendingPathComponent("ca.key"), atomically: true, encoding: .utf8)
            self.port = port
            let path = directory.path
            process = try Subprocess(
                "/usr/bin/openssl",
                [
                    "ocsp", "-index", path + "/index.txt", "-port", String(port), "-rsigner", path + "/ca.pem", "-rkey", path + "/ca.key", "-CA",
                    path + "/ca.pem", "-ndays", "1", "-ignore_err",
                ], environment: ["PATH": "/usr/bin:/bin"])
            // OpenSSL 3.0's responder answers one connection at a time and waits forever on a connection that
            // sends nothing, so the probe never leaves one: it writes its whole request as soon as it connects
            // (an HTTP client that times out between the two would wedge the responder) and reads the answer.
            // A reset is "not yet": a connection accepted just before a responder exits is reset.
            do {
                try await eventually("openssl ocsp answers on \(port)") {
                    guard let connection = try? RawConnection(port: port), (try? connection.send("GET / HTTP/1.0\r\n\r\n")) != nil else { return false }
                    return (try? connection.readToEnd())?.isEmpty == false
                }
            } catch {
                await stop()
                throw error
            }
        }

        /// Ends the responder and waits until it has exited, so the next one on its port finds the port free
        /// (a responder still dying would take the next one's probe and reset it, or keep its bind failing).
        func stop() async {
            process.signal(SIGKILL)
            _ = await process.waitForExit(upTo: .seconds(60))
            try? FileManager.default.removeItem(at: directory)
        }
    }

    static func der(_ certificate: Certificate) throws -> Data {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return Data(serializer.serializedBytes)
    }

    /// Checks the chain of a CA whose certificates name these responders; nil when trusted.
    /// `timeout` bounds each OCSP request: long where a responder answers (one abandoned between connecting
    /// and writing would wedge `openssl ocsp` on a busy machine), short where none does.
    static func check(_ ca: SimulatorCA, timeout: TimeAmount) async throws -> VerificationFailure? {
        let verifier = ChainVerifier(roots: [ca.root], ocsp: HTTPOCSPTransport(http: .shared, timeout: timeout))
        return await verifier.verifyChain(leafDER: try der(ca.leaf), intermediateDER: try der(ca.intermediate), at: Date(), now: Date())
    }

    @Test func goodAndRevokedAnswersDecide() async throws {
        let rootPort = try FreePort.find()
        let intermediatePort = try FreePort.find()
        for revoked in [false, true] {
            let ca = try SimulatorCA(ocsp: (root: "http://127.0.0.1:\(rootPort)/", intermediate: "http://127.0.0.1:\(intermediatePort)/"))
            // Each responder on the port its URL names, both ended (and gone) before the next round or a failure.
            var responders: [Responder] = []
            let failure: VerificationFailure?
            do {
                responders.append(
                    try await Responder(issuer: ca.root, key: ca.rootKey, statuses: [(ca.intermediate, revoked: false)], port: rootPort))
                responders.append(
                    try await Responder(
                        issuer: ca.intermediate, key: ca.intermediateKey, statuses: [(ca.leaf, revoked: revoked)], port: intermediatePort))
                failure = try await Self.check(ca, timeout: .seconds(20))
            } catch {
                for responder in responders { await responder.stop() }
                throw error
            }
            for responder in responders { await responder.stop() }
            if revoked {
                #expect(
                    failure?.isRetryable == false && String(describing: failure).contains("revoked"),
                    "a revoked leaf is refused for good: \(String(describing: failure))")
            } else {
                #expect(failure == nil, "good answers for both certificates: \(String(describing: failure))")
            }
        }
    }

    @Test func aResponderThatNeverAnswersIsARetryableFailure() async throws {
        // A socket that accepts connections (the kernel completes them) and never reads or answers.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        #expect(listening)
        let url = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/"
        let ca = try SimulatorCA(ocsp: (root: url, intermediate: url))
        let start = ContinuousClock.now
        let failure = try await Self.check(ca, timeout: .seconds(1))
        #expect(failure?.isRetryable == true, "\(String(describing: failure))")
        #expect(ContinuousClock.now - start < .seconds(5), "the transport's timeout ends the wait")
    }
}
