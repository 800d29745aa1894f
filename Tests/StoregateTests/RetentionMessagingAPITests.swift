import AppStoreServer
import AppStoreSimulator
import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing

/// The Retention Messaging API's 14 calls: built as Apple's own library builds them, and answered by the
/// simulator as Apple answers (review states, Apple's refusals and codes, the performance test).
@Suite struct RetentionMessagingAPITests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("AppleLibrary/retention_requests.py").path

    /// The request of one call, as sent.
    struct SentRequest: Decodable, Equatable, CustomStringConvertible {
        let method: String
        let path: String
        let query: [[String]]
        let contentType: String?
        let body: Data

        var description: String { "\(method) \(path) \(query) \(contentType ?? "-") \(body.count) bytes" }
    }

    /// Apple's library and Storegate's client make the same 14 requests: method, path, query and content
    /// type exactly; the PNG byte for byte; each JSON body the same JSON value (Python's `json.dumps` puts
    /// a space after each separator and Swift's encoder escapes `/`, so their bytes differ).
    @Test func everyCallIsTheRequestApplesLibraryBuilds() async throws {
        try await SimulatorHarness.with { sim in
            let (image, bulletImage, message) = (UUID(), UUID(), UUID())
            let png = PNGFixture.solid(width: 3840, height: 160)
            let arguments: [String: String] = [
                "imageIdentifier": image.uuidString, "bulletImageIdentifier": bulletImage.uuidString, "messageIdentifier": message.uuidString,
                "productId": "com.example.monthly", "locale": "en-US", "realtimeURL": "https://retention.example.com/apple/retention/abc",
                "originalTransactionId": "2000000000000001", "requestId": "c4b87a1d-2e3f-4a5b-9c6d-7e8f9a0b1c2d", "png": png.base64EncodedString(),
                "header": "Before you go", "body": "Stay for half price, three months.", "altText": "A calm lake", "bulletText": "Every course",
            ]
            let client = sim.client
            let messageBody = UploadMessageRequestBody(
                header: arguments["header"]!, body: arguments["body"]!,
                image: UploadMessageImage(imageIdentifier: LowercaseUUID(image), altText: arguments["altText"]!), headerPosition: .aboveImage,
                bulletPoints: [BulletPoint(text: arguments["bulletText"]!, imageIdentifier: LowercaseUUID(bulletImage), altText: arguments["altText"]!)])
            let before = await sim.store.received.count
            // In the library's order; Apple's answers (refusals included) do not change the requests.
            try? await client.uploadImage(imageIdentifier: image, image: png, imageSize: .fullSize)
            try? await client.deleteImage(imageIdentifier: image)
            _ = try? await client.getImageList()
            try? await client.uploadMessage(messageIdentifier: message, request: messageBody)
            try? await client.deleteMessage(messageIdentifier: message)
            _ = try? await client.getMessageList()
            try? await client.configureDefaultMessage(
                productId: "com.example.monthly", locale: "en-US", request: DefaultConfigurationRequest(messageIdentifier: LowercaseUUID(message)))
            try? await client.deleteDefaultMessage(productId: "com.example.monthly", locale: "en-US")
            _ = try? await client.getDefaultMessage(productId: "com.example.monthly", locale: "en-US")
            try? await client.configureRealtimeURL(request: RealtimeUrlRequest(realtimeURL: arguments["realtimeURL"]!))
            try? await client.deleteRealtimeURL()
            _ = try? await client.getRealtimeURL()
            _ = try? await client.initiatePerformanceTest(request: PerformanceTestRequest(originalTransactionId: arguments["originalTransactionId"]!))
            _ = try? await client.getPerformanceTestResults(requestId: arguments["requestId"]!)
            let ours = await sim.store.received.dropFirst(before).map {
                SentRequest(method: $0.method, path: $0.path, query: $0.query.map { [$0.0, $0.1] }, contentType: $0.contentType, body: $0.body)
            }

            let apples = try await Self.applesRequests(arguments)
            #expect(ours.count == 14)
            #expect(apples.count == 14)
            for (mine, theirs) in zip(ours, apples) {
                #expect(mine.method == theirs.method, "\(mine) vs \(theirs)")
                #expect(mine.path == theirs.path, "\(mine) vs \(theirs)")
                #expect(mine.query == theirs.query, "\(mine) vs \(theirs)")
                #expect(mine.contentType == theirs.contentType, "\(mine) vs \(theirs)")
                if theirs.contentType == "application/json" {
                    let (a, b) = (try JSONSerialization.jsonObject(with: mine.body), try JSONSerialization.jsonObject(with: theirs.body))
                    #expect(
                        (a as? NSDictionary) == (b as? NSDictionary),
                        "\(String(decoding: mine.body, as: UTF8.self)) vs \(String(decoding: theirs.body, as: UTF8.self))")
                } else {
                    #expect(mine.body == theirs.body, "\(mine) vs \(theirs)")
                }
            }
        }
    }

    /// Runs `retention_requests.py`: the requests of Apple's library for `arguments`.
    static func applesRequests(_ arguments: [String: String]) async throws -> [SentRequest] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("retention-\(UUID()).json")
        try JSONSerialization.data(withJSONObject: arguments).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try await Subprocess.run("/usr/bin/env", ["python3", script, file.path], environment: ProcessInfo.processInfo.environment)
        #expect(run.status == 0, "Apple's library: \(run.stderr)")
        struct Line: Decodable {
            let method: String
            let path: String
            let query: [[String]]
            let contentType: String?
            let body: String
        }
        return try run.stdout.split(separator: "\n").map { line in
            let decoded = try JSONDecoder().decode(Line.self, from: Data(line.utf8))
            return SentRequest(
                method: decoded.method, path: decoded.path, query: decoded.query, contentType: decoded.contentType,
                body: Data(base64Encoded: decoded.body) ?? Data())
        }
    }

    /// What Apple answers, code for code: images and messages wait for review, a default message needs an
    /// approved message, an image in use stays, the realtime URL must be HTTPS.
    @Test func imagesMessagesAndDefaultsFollowApplesRules() async throws {
        try await SimulatorHarness.with { sim in
            let client = sim.client
            func code(_ call: () async throws -> Void) async -> APIErrorCode? {
                do {
                    try await call()
                    return nil
                } catch { return (error as? AppStoreServerAPIError)?.apiErrorCode }
            }
            let image = UUID()
            let fullSize = PNGFixture.solid(width: 3840, height: 480)
            #expect(
                await code {
                    try await client.uploadImage(imageIdentifier: UUID(), image: PNGFixture.solid(width: 3840, height: 480, alpha: true), imageSize: .fullSize)
                } == .invalidImage)
            #expect(
                await code { try await client.uploadImage(imageIdentifier: UUID(), image: PNGFixture.solid(width: 1920, height: 480), imageSize: .fullSize) }
                    == .invalidImage)
            #expect(await code { try await client.uploadImage(imageIdentifier: UUID(), image: Data("GIF89a".utf8), imageSize: .bulletPoint) } == .invalidImage)
            #expect(
                await code { try await client.uploadImage(imageIdentifier: UUID(), image: fullSize, imageSize: ImageSize(rawValue: "HUGE")) }
                    == .badRequestImageSize)
            try await client.uploadImage(imageIdentifier: image, image: fullSize, imageSize: .fullSize)
            #expect(await code { try await client.uploadImage(imageIdentifier: image, image: fullSize, imageSize: .fullSize) } == .imageAlreadyExists)
            #expect(try await client.getImageList().imageIdentifiers?.first?.imageState == .pending)

            let message = UUID()
            let body = UploadMessageRequestBody(
                header: "Before you go", body: "Three months at half price.",
                image: UploadMessageImage(imageIdentifier: LowercaseUUID(image), altText: "A lake"))
            #expect(await code { try await client.uploadMessage(messageIdentifier: message, request: body) } == .imageNotApproved)
            try await Self.review(sim, image, approved: true)
            var tooLong = body
            tooLong.header = String(repeating: "h", count: 67)
            #expect(await code { try await client.uploadMessage(messageIdentifier: message, request: tooLong) } == .headerTooLong)
            try await client.uploadMessage(messageIdentifier: message, request: body)
            #expect(try await client.getMessageList().messageIdentifiers?.first?.messageState == .pending)

            let configure = {
                try await client.configureDefaultMessage(
                    productId: "com.example.monthly", locale: "en-US", request: .init(messageIdentifier: LowercaseUUID(message)))
            }
            #expect(await code { try await configure() } == .messageNotApproved)
            try await Self.review(sim, message, approved: true)
            #expect(
                await code {
                    try await client.configureDefaultMessage(
                        productId: "com.example.monthly", locale: "english", request: .init(messageIdentifier: LowercaseUUID(message)))
                } == .invalidLocale)
            try await configure()
            #expect(try await client.getDefaultMessage(productId: "com.example.monthly", locale: "en-US").messageIdentifier.uuid == message)
            #expect(await code { try await client.deleteImage(imageIdentifier: image) } == .imageInUse)
            try await client.deleteMessage(messageIdentifier: message)
            #expect(await code { _ = try await client.getDefaultMessage(productId: "com.example.monthly", locale: "en-US") } == .defaultMessageNotFound)
            try await client.deleteImage(imageIdentifier: image)
            #expect(await code { try await client.deleteImage(imageIdentifier: image) } == .imageNotFound)

            #expect(await code { _ = try await client.getRealtimeURL() } == .realtimeUrlNotFound)
            #expect(
                await code { try await client.configureRealtimeURL(request: .init(realtimeURL: "http://retention.example.com/x")) } == .badRequestRealtimeUrl)
            try await client.configureRealtimeURL(request: .init(realtimeURL: "https://retention.example.com/x"))
            #expect(try await client.getRealtimeURL().realtimeURL == "https://retention.example.com/x")
            try await client.deleteRealtimeURL()
            #expect(await code { try await client.deleteRealtimeURL() } == .realtimeUrlNotFound)
        }
    }

    /// Apple's performance test as the simulator runs it: 100 signed realtime requests, 10 at a time, to
    /// an endpoint that answers at once (passes) and to one that answers 500 (fails), with the result's shape.
    /// (The harness's threshold is 10 s, not Apple's 500 ms: this is not a measure of speed.)
    @Test func thePerformanceTestMeasuresTheEndpoint() async throws {
        try await SimulatorHarness.with { sim in
            var purchase = SimulatorStore.Purchase(
                customer: "perf", bundleId: SimulatorHarness.bundleId, productId: "com.example.monthly", type: .autoRenewableSubscription)
            purchase.subscriptionGroupIdentifier = "group.premium"
            let original = try #require(await sim.store.purchase(purchase).originalTransactionId)
            for status in [HTTPResponse.Status.ok, .internalServerError] {
                let router = Router()
                router.post("/retention") { _, _ in
                    Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: "{}")))
                }
                let app = Application(router: router, logger: TestLog.logger("endpoint"))
                try await app.test(.ahc(.http)) { running in
                    try await sim.client.configureRealtimeURL(request: .init(realtimeURL: "http://127.0.0.1:\(try running.boundPort())/retention"))
                    let started = try await sim.client.initiatePerformanceTest(request: .init(originalTransactionId: original))
                    #expect(started.config.totalRequests == 100)
                    let requestId = started.requestId
                    var result = try await sim.client.getPerformanceTestResults(requestId: requestId)
                    try await eventually("the performance test ends") {
                        result = try await sim.client.getPerformanceTestResults(requestId: requestId)
                        return result.result != .pending
                    }
                    #expect(result.numPending == 0)
                    if status == .ok {
                        #expect(result.result == .pass)
                        #expect(result.successRate == 100)
                        #expect(result.responseTimes.p99 <= started.config.responseTimeThreshold)
                    } else {
                        #expect(result.result == .fail)
                        #expect(result.failures?["UNSUCCESSFUL_HTTP_RESPONSE_CODE"] == 100)
                    }
                }
            }
            do {
                _ = try await sim.client.getPerformanceTestResults(requestId: "no-such-test")
                Issue.record("an unknown test was found")
            } catch { #expect((error as? AppStoreServerAPIError)?.apiErrorCode == .performanceTestRunNotFound) }
        }
    }

    /// The facts Apple's image rules read: dimensions, and transparency from the colour type or a tRNS chunk.
    @Test func pngHeadersAreRead() throws {
        let rgb = try #require(PNGHeader(PNGFixture.solid(width: 3840, height: 160)))
        #expect(rgb == PNGHeader(PNGFixture.solid(width: 3840, height: 160)))
        #expect((rgb.width, rgb.height, rgb.hasTransparency) == (3840, 160, false))
        #expect(PNGHeader(PNGFixture.solid(width: 64, height: 64, alpha: true))?.hasTransparency == true)
        var keyed = [UInt8](PNGFixture.solid(width: 64, height: 64))
        let idat = 8 + 25  // after the signature and the IHDR chunk
        keyed.insert(contentsOf: PNGFixture.chunk("tRNS", [0, 0, 0, 0, 0, 0]), at: idat)
        #expect(PNGHeader(Data(keyed))?.hasTransparency == true)
        #expect(PNGHeader(Data("not a png at all, not at all, no".utf8)) == nil)
        #expect(RetentionMessagingRules.check(image: PNGFixture.solid(width: 3840, height: 2161), size: .fullSize)?.code == .invalidImage)
        #expect(RetentionMessagingRules.check(image: PNGFixture.solid(width: 96, height: 96), size: .bulletPoint) == nil)
        #expect(RetentionMessagingRules.check(locale: "zh-Hant-TW") == nil)
        #expect(RetentionMessagingRules.check(locale: "EN-us")?.code == .invalidLocale)
    }

    static func review(_ sim: SimulatorHarness, _ id: UUID, approved: Bool) async throws {
        #expect(await sim.store.review(bundleId: SimulatorHarness.bundleId, identifier: id, approved: approved))
    }
}
