import AppStoreServer
import AppStoreSimulator
import Foundation
import Storegate
import Testing

/// `retention.*` over RPC, through the simulator: Apple's rules refused before Apple is called (the field
/// named), Apple's refusals with Apple's code, the realtime URL pointed at Storegate's own endpoint.
@Suite struct RetentionMethodsTests {
    static func error(_ reply: [String: Any]) -> (code: Int?, field: String?, apple: APIErrorCode?) {
        let error = reply["error"] as? [String: Any]
        let data = error?["data"] as? [String: Any]
        return (error?["code"] as? Int, data?["field"] as? String, (data?["appleErrorCode"] as? Int).map { APIErrorCode(rawValue: Int64($0)) })
    }

    /// A full-size PNG is larger than the RPC's 1 MiB body limit: `retention.images.upload` sent alone may
    /// carry up to its documented `maxLength`, so that length is reachable (one more character is refused
    /// naming `png`, not cut at the door); in a batch, or for another method, the limit stands (413).
    @Test func aFullSizeImageFitsTheDocumentedLengthNotTheBodyLimit() async throws {
        try await Storefront.with(slug: "retention-large") { s in
            let app = ["bundleId": Storefront.bundleId]
            let png = PNGFixture.solid(width: 3840, height: 160).base64EncodedString()
            #expect(png.utf8.count > 1 << 20, "larger than the body limit: \(png.utf8.count)")
            let uploaded = try await s.result("retention.images.upload", app.merging(["imageSize": "FULL_SIZE", "png": png]) { a, _ in a })
            #expect(uploaded["imageIdentifier"] is String)

            let tooLong = try await s.call(
                "retention.images.upload", app.merging(["imageSize": "FULL_SIZE", "png": String(repeating: "A", count: (16 << 20) + 1)]) { a, _ in a })
            #expect(Self.error(tooLong).code == -32602 && Self.error(tooLong).field == "png", "\(tooLong)")

            let call =
                ["jsonrpc": "2.0", "method": "retention.images.upload", "params": app.merging(["imageSize": "FULL_SIZE", "png": png]) { a, _ in a }, "id": 1]
                as [String: Any]
            let batch = String(decoding: try JSONSerialization.data(withJSONObject: [call]), as: UTF8.self)
            let refused = try await s.server.rpc(raw: batch, apiKey: s.apiKey)
            #expect(refused.status == 413)
            let other = try await s.server.rpc(
                raw: #"{"jsonrpc":"2.0","method":"apps.list","params":{"x":""# + String(repeating: "a", count: 2 << 20) + #""},"id":1}"#, apiKey: s.apiKey)
            #expect(other.status == 413)
        }
    }

    @Test func imagesMessagesDefaultsAndTheRealtimeURL() async throws {
        try await Storefront.with(slug: "retention") { s in
            let app = ["bundleId": Storefront.bundleId]
            func messagingCalls() async -> Int { await s.store.received.filter { $0.path.hasPrefix("/inApps/v1/messaging/") }.count }

            // Small images: the RPC body is at most --max-body-bytes (1 MiB by default), and these PNGs are not compressed.
            let transparent = PNGFixture.solid(width: 64, height: 64, alpha: true).base64EncodedString()
            let refused = try await s.call("retention.images.upload", app.merging(["imageSize": "FULL_SIZE", "png": transparent]) { a, _ in a })
            #expect(Self.error(refused).field == "image", "\(refused)")
            #expect(await messagingCalls() == 0, "Apple was not called")

            let wrongSize = try await s.call(
                "retention.images.upload",
                app.merging(["imageSize": "FULL_SIZE", "png": PNGFixture.solid(width: 96, height: 96).base64EncodedString()]) { a, _ in a })
            #expect(Self.error(wrongSize).field == "image", "\(wrongSize)")
            #expect(await messagingCalls() == 0, "Apple was not called")

            let png = PNGFixture.solid(width: 96, height: 96).base64EncodedString()
            let image = try #require(
                try await s.result("retention.images.upload", app.merging(["imageSize": "BULLET_POINT", "png": png]) { a, _ in a })["imageIdentifier"]
                    as? String)
            let images = try await s.result("retention.images.list", app)["images"] as? [[String: Any]]
            #expect(images?.first?["imageIdentifier"] as? String == image)
            #expect(images?.first?["imageState"] as? String == "PENDING")
            #expect(await s.store.review(bundleId: Storefront.bundleId, identifier: try #require(UUID(uuidString: image)), approved: true))

            var message: [String: Any] = app
            message["header"] = String(repeating: "h", count: 67)
            message["body"] = "Three months at half price."
            message["image"] = ["imageIdentifier": image, "altText": "A calm lake"]
            let tooLong = try await s.call("retention.messages.upload", message)
            #expect(Self.error(tooLong).field == "header", "\(tooLong)")
            message["header"] = "Before you go"
            let messageId = try #require(try await s.result("retention.messages.upload", message)["messageIdentifier"] as? String)
            let defaults: [String: Any] = [
                "bundleId": Storefront.bundleId, "productId": "com.example.monthly", "locale": "en-US", "messageIdentifier": messageId,
            ]
            let notApproved = try await s.call("retention.defaults.configure", defaults)
            #expect(Self.error(notApproved).apple == APIErrorCode.messageNotApproved, "\(notApproved)")
            #expect(await s.store.review(bundleId: Storefront.bundleId, identifier: try #require(UUID(uuidString: messageId)), approved: true))
            _ = try await s.result("retention.defaults.configure", defaults)
            let configured = try await s.result("retention.defaults.get", defaults.filter { $0.key != "messageIdentifier" })
            #expect(configured["messageIdentifier"] as? String == messageId)
            let missing = try await s.call("retention.defaults.get", ["bundleId": Storefront.bundleId, "productId": "com.example.monthly", "locale": "fr-FR"])
            #expect(Self.error(missing).apple == APIErrorCode.defaultMessageNotFound, "\(missing)")
            let inUse = try await s.call("retention.images.delete", app.merging(["imageIdentifier": image]) { a, _ in a })
            #expect(Self.error(inUse).apple == APIErrorCode.imageInUse, "\(inUse)")

            let url = try #require(try await s.result("retention.realtimeURL.configure", app)["realtimeURL"] as? String)
            #expect(url.contains("/apple/retention/"))
            #expect(url.hasSuffix(String(s.webhookURL.split(separator: "/").last ?? "")), "the app's token for the environment")
            #expect(try await s.result("retention.realtimeURL.get", app)["realtimeURL"] as? String == url)
            _ = try await s.result("retention.realtimeURL.delete", app)
            let gone = try await s.call("retention.realtimeURL.get", app)
            #expect(Self.error(gone).apple == APIErrorCode.realtimeUrlNotFound, "\(gone)")
        }
    }
}
