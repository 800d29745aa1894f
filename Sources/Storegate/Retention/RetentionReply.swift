import AppStoreServer
import Foundation
import Logging

/// An answer to Apple's Get Retention Message request: the body to send, and what to record once it was
/// sent. Recording after sending is what makes the record true: an answer cut at its deadline, or one whose
/// connection closed before it went out, is recorded as what Apple received (`{}`), with why.
public struct RetentionReply: Sendable {
    public let body: RealtimeResponseBody
    private let record: Record?

    struct Record: Sendable {
        let service: RetentionRuleService
        let request: DecodedRealtimeRequestBody
        let target: NotificationURLTarget
        let choice: RetentionRuleService.Choice
        let cut: String?
    }

    /// `{}`, with nothing to record (the request was never verified as Apple's).
    init() {
        self.body = RealtimeResponseBody()
        self.record = nil
    }

    /// `body`, chosen as `choice` says.
    init(
        body: RealtimeResponseBody, service: RetentionRuleService, request: DecodedRealtimeRequestBody, target: NotificationURLTarget,
        choice: RetentionRuleService.Choice
    ) {
        self.body = body
        self.record = Record(service: service, request: request, target: target, choice: choice, cut: nil)
    }

    /// `{}` in place of an answer that was cut: `cut` says why.
    init(service: RetentionRuleService, request: DecodedRealtimeRequestBody, target: NotificationURLTarget, choice: RetentionRuleService.Choice, cut: String?) {
        self.body = RealtimeResponseBody()
        self.record = Record(service: service, request: request, target: target, choice: choice, cut: cut)
    }

    /// Records the answer as Apple received it: as sent, or, when `failure` says it could not be sent, as cut.
    /// A failure to record is logged: the answer is gone already.
    public func sent(failure: String? = nil) async {
        guard let record else { return }
        var choice = record.choice
        var cut = record.cut
        if let failure {
            choice.answer = nil
            cut = "the answer could not be sent: \(failure)"
        }
        do {
            try await record.service.record(choice, request: record.request, target: record.target, cut: cut)
        } catch {
            record.service.logger.error(
                "retention answer sent but not recorded",
                metadata: ["request": "\(record.request.requestIdentifier)", "error": "\(error)"])
        }
    }
}
