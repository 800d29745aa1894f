import AppStoreServer
import Foundation
import HTTPTypes

/// One app's Retention Messaging in one environment, as the simulator keeps it: images and messages with
/// the review state Apple reports (PENDING until a scenario approves or rejects them), default messages
/// per product and locale, the realtime URL, and performance tests. Apple's rules (`RetentionMessagingRules`)
/// and its refusals, with Apple's error codes.
struct RetentionMessaging: Codable, Sendable {
    struct Image: Codable, Sendable {
        var state: ImageState
        var size: ImageSize
    }

    struct Message: Codable, Sendable {
        var state: MessageState
        var body: UploadMessageRequestBody
    }

    /// What Apple answers instead of doing what was asked.
    struct Refusal: Error {
        let code: APIErrorCode
        let message: String
        let status: HTTPResponse.Status

        init(_ code: APIErrorCode, _ message: String, _ status: HTTPResponse.Status) {
            self.code = code
            self.message = message
            self.status = status
        }

        init(_ violation: RetentionMessagingRules.Violation) {
            self.init(violation.code, "\(violation.field) \(violation.reason).", .badRequest)
        }

        static let imageNotFound = Refusal(.imageNotFound, "Image not found.", .notFound)
        static let messageNotFound = Refusal(.messageNotFound, "Message not found.", .notFound)
        static let defaultMessageNotFound = Refusal(.defaultMessageNotFound, "Default message not found.", .notFound)
        static let realtimeUrlNotFound = Refusal(.realtimeUrlNotFound, "Realtime URL not found.", .notFound)
    }

    private(set) var images: [UUID: Image] = [:]
    private var imageOrder: [UUID] = []
    private(set) var messages: [UUID: Message] = [:]
    private var messageOrder: [UUID] = []
    private(set) var defaults: [String: UUID] = [:]
    private(set) var realtimeURL: String?
    var performanceTests: [String: PerformanceTestResultResponse] = [:]

    // MARK: Images

    mutating func uploadImage(_ id: UUID, png: Data, size: ImageSize) throws(Refusal) {
        if let violation = RetentionMessagingRules.check(image: png, size: size) { throw Refusal(violation) }
        guard images[id] == nil else { throw Refusal(.imageAlreadyExists, "An image with this identifier already exists.", .conflict) }
        guard images.count < RetentionMessagingRules.maxImages else {
            throw Refusal(.maximumNumberOfImagesReached, "The maximum number of images has been reached.", .forbidden)
        }
        images[id] = Image(state: .pending, size: size)
        imageOrder.append(id)
    }

    mutating func deleteImage(_ id: UUID) throws(Refusal) {
        guard images[id] != nil else { throw .imageNotFound }
        let used = messages.values.contains { message in
            message.body.image?.imageIdentifier.uuid == id || (message.body.bulletPoints ?? []).contains { $0.imageIdentifier.uuid == id }
        }
        guard !used else { throw Refusal(.imageInUse, "The image is in use by a message.", .forbidden) }
        images[id] = nil
        imageOrder.removeAll { $0 == id }
    }

    var imageList: GetImageListResponse {
        GetImageListResponse(
            imageIdentifiers: imageOrder.compactMap { id in
                images[id].map { GetImageListResponseItem(imageIdentifier: LowercaseUUID(id), imageState: $0.state, imageSize: $0.size) }
            })
    }

    // MARK: Messages

    mutating func uploadMessage(_ id: UUID, _ body: UploadMessageRequestBody) throws(Refusal) {
        if let violation = RetentionMessagingRules.check(body) { throw Refusal(violation) }
        let named = [body.image?.imageIdentifier.uuid].compactMap { $0 } + (body.bulletPoints ?? []).map(\.imageIdentifier.uuid)
        for image in named {
            guard let found = images[image] else { throw .imageNotFound }
            guard found.state == .approved else { throw Refusal(.imageNotApproved, "The image is not approved.", .forbidden) }
        }
        guard messages[id] == nil else { throw Refusal(.messageAlreadyExists, "A message with this identifier already exists.", .conflict) }
        guard messages.count < RetentionMessagingRules.maxMessages else {
            throw Refusal(.maximumNumberOfMessagesReached, "The maximum number of messages has been reached.", .forbidden)
        }
        messages[id] = Message(state: .pending, body: body)
        messageOrder.append(id)
    }

    /// Deletes a message; the default messages that named it go with it.
    mutating func deleteMessage(_ id: UUID) throws(Refusal) {
        guard messages[id] != nil else { throw .messageNotFound }
        messages[id] = nil
        messageOrder.removeAll { $0 == id }
        defaults = defaults.filter { $0.value != id }
    }

    var messageList: GetMessageListResponse {
        GetMessageListResponse(
            messageIdentifiers: messageOrder.compactMap { id in
                messages[id].map { GetMessageListResponseItem(messageIdentifier: LowercaseUUID(id), messageState: $0.state) }
            })
    }

    // MARK: Default messages

    mutating func configureDefault(productId: String, locale: String, message: UUID?) throws(Refusal) {
        if let violation = RetentionMessagingRules.check(locale: locale) { throw Refusal(violation) }
        guard let message, let found = messages[message] else { throw .messageNotFound }
        guard found.state == .approved else { throw Refusal(.messageNotApproved, "The message is not approved.", .forbidden) }
        defaults[productId + "/" + locale] = message
    }

    func defaultMessage(productId: String, locale: String) throws(Refusal) -> UUID {
        guard let id = defaults[productId + "/" + locale] else { throw .defaultMessageNotFound }
        return id
    }

    mutating func deleteDefault(productId: String, locale: String) throws(Refusal) {
        guard defaults.removeValue(forKey: productId + "/" + locale) != nil else { throw .defaultMessageNotFound }
    }

    // MARK: Realtime URL

    mutating func configureRealtimeURL(_ url: String) throws(Refusal) {
        if let violation = RetentionMessagingRules.check(realtimeURL: url) { throw Refusal(violation) }
        realtimeURL = url
    }

    func configuredRealtimeURL() throws(Refusal) -> String {
        guard let realtimeURL else { throw .realtimeUrlNotFound }
        return realtimeURL
    }

    mutating func deleteRealtimeURL() throws(Refusal) {
        guard realtimeURL != nil else { throw .realtimeUrlNotFound }
        realtimeURL = nil
    }

    // MARK: Review

    /// Apple's review of an image or a message: whether one had this identifier.
    mutating func review(_ id: UUID, approved: Bool) -> Bool {
        if images[id] != nil {
            images[id]?.state = approved ? .approved : .rejected
            return true
        }
        if messages[id] != nil {
            messages[id]?.state = approved ? .approved : .rejected
            return true
        }
        return false
    }
}

extension SimulatorStore {
    /// Apple's review of an image or message of `bundleId` (in its own environment unless one is named):
    /// whether one had this identifier.
    public func review(bundleId: String, environment: AppStoreEnvironment? = nil, identifier: UUID, approved: Bool) -> Bool {
        guard let environment = environment ?? app(bundleId)?.environment else { return false }
        return retention(bundleId: bundleId, environment: environment) { $0.review(identifier, approved: approved) }
    }

    /// Runs `body` on the Retention Messaging of `bundleId` in `environment`.
    func retention<T>(bundleId: String, environment: AppStoreEnvironment, _ body: (inout RetentionMessaging) throws -> T) rethrows -> T {
        try body(&retention[bundleId + "@" + environment.rawValue, default: RetentionMessaging()])
    }
}
