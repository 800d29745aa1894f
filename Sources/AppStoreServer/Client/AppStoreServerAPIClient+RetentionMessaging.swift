import Foundation
import NIOHTTP1

/// The Retention Messaging API: the images and messages the App Store may show a customer who is about
/// to cancel, the default message per product and locale, the URL of the app's Get Retention Message
/// endpoint, and Apple's performance test of that endpoint. The 14 calls of Apple's library.
extension AppStoreServerAPIClient {
    /// Upload Image: `PUT /inApps/v1/messaging/image/{imageIdentifier}?imageSize=…`, the PNG itself as the body.
    public func uploadImage(imageIdentifier: UUID, image: Data, imageSize: ImageSize?) async throws(AppStoreServerAPIError) {
        _ = try await send(
            Call(
                method: .PUT, path: ["inApps", "v1", "messaging", "image", Self.identifier(imageIdentifier)],
                query: imageSize.map { [("imageSize", $0.rawValue)] } ?? [], body: image, contentType: "image/png"))
    }

    /// Delete Image: `DELETE /inApps/v1/messaging/image/{imageIdentifier}`.
    public func deleteImage(imageIdentifier: UUID) async throws(AppStoreServerAPIError) {
        _ = try await send(Call(method: .DELETE, path: ["inApps", "v1", "messaging", "image", Self.identifier(imageIdentifier)]))
    }

    /// Get Image List: `GET /inApps/v1/messaging/image/list`.
    public func getImageList() async throws(AppStoreServerAPIError) -> GetImageListResponse {
        try await decode(GetImageListResponse.self, Call(method: .GET, path: ["inApps", "v1", "messaging", "image", "list"]))
    }

    /// Upload Message: `PUT /inApps/v1/messaging/message/{messageIdentifier}`.
    public func uploadMessage(messageIdentifier: UUID, request: UploadMessageRequestBody) async throws(AppStoreServerAPIError) {
        _ = try await send(
            Call(method: .PUT, path: ["inApps", "v1", "messaging", "message", Self.identifier(messageIdentifier)], body: try Self.json(request)))
    }

    /// Delete Message: `DELETE /inApps/v1/messaging/message/{messageIdentifier}`.
    public func deleteMessage(messageIdentifier: UUID) async throws(AppStoreServerAPIError) {
        _ = try await send(Call(method: .DELETE, path: ["inApps", "v1", "messaging", "message", Self.identifier(messageIdentifier)]))
    }

    /// Get Message List: `GET /inApps/v1/messaging/message/list`.
    public func getMessageList() async throws(AppStoreServerAPIError) -> GetMessageListResponse {
        try await decode(GetMessageListResponse.self, Call(method: .GET, path: ["inApps", "v1", "messaging", "message", "list"]))
    }

    /// Configure Default Message: `PUT /inApps/v1/messaging/default/{productId}/{locale}`.
    public func configureDefaultMessage(productId: String, locale: String, request: DefaultConfigurationRequest) async throws(AppStoreServerAPIError) {
        _ = try await send(Call(method: .PUT, path: ["inApps", "v1", "messaging", "default", productId, locale], body: try Self.json(request)))
    }

    /// Delete Default Message: `DELETE /inApps/v1/messaging/default/{productId}/{locale}`.
    public func deleteDefaultMessage(productId: String, locale: String) async throws(AppStoreServerAPIError) {
        _ = try await send(Call(method: .DELETE, path: ["inApps", "v1", "messaging", "default", productId, locale]))
    }

    /// Get Default Message: `GET /inApps/v1/messaging/default/{productId}/{locale}`.
    public func getDefaultMessage(productId: String, locale: String) async throws(AppStoreServerAPIError) -> DefaultConfigurationResponse {
        try await decode(DefaultConfigurationResponse.self, Call(method: .GET, path: ["inApps", "v1", "messaging", "default", productId, locale]))
    }

    /// Configure Realtime URL: `PUT /inApps/v1/messaging/realtime/url`.
    public func configureRealtimeURL(request: RealtimeUrlRequest) async throws(AppStoreServerAPIError) {
        _ = try await send(Call(method: .PUT, path: ["inApps", "v1", "messaging", "realtime", "url"], body: try Self.json(request)))
    }

    /// Delete Realtime URL: `DELETE /inApps/v1/messaging/realtime/url`.
    public func deleteRealtimeURL() async throws(AppStoreServerAPIError) {
        _ = try await send(Call(method: .DELETE, path: ["inApps", "v1", "messaging", "realtime", "url"]))
    }

    /// Get Realtime URL: `GET /inApps/v1/messaging/realtime/url`.
    public func getRealtimeURL() async throws(AppStoreServerAPIError) -> RealtimeUrlResponse {
        try await decode(RealtimeUrlResponse.self, Call(method: .GET, path: ["inApps", "v1", "messaging", "realtime", "url"]))
    }

    /// Initiate Performance Test: `POST /inApps/v1/messaging/performanceTest`. Not repeated after a timeout:
    /// a second test may start beside the first.
    public func initiatePerformanceTest(request: PerformanceTestRequest) async throws(AppStoreServerAPIError) -> PerformanceTestResponse {
        try await decode(
            PerformanceTestResponse.self,
            Call(method: .POST, path: ["inApps", "v1", "messaging", "performanceTest"], body: try Self.json(request), idempotent: false))
    }

    /// Get Performance Test Results: `GET /inApps/v1/messaging/performanceTest/result/{requestId}`.
    public func getPerformanceTestResults(requestId: String) async throws(AppStoreServerAPIError) -> PerformanceTestResultResponse {
        try await decode(PerformanceTestResultResponse.self, Call(method: .GET, path: ["inApps", "v1", "messaging", "performanceTest", "result", requestId]))
    }

    /// A UUID in a path as Apple's libraries write it: lowercase.
    static func identifier(_ uuid: UUID) -> String { uuid.uuidString.lowercased() }
}
