import Contract

/// The rules of webhook endpoints' fields, shared by their methods and their answers.
extension Rule {
    /// A webhook endpoint's id.
    public static let endpointId = Rule.characters("a-z2-7", count: 26...26, prefix: "we_").described("The endpoint's id (`we_…`).")
    /// A webhook delivery's id.
    public static let deliveryId = Rule.characters("a-z2-7", count: 26...26, prefix: "wd_")
    public static let deliveryStatus = Rule.oneOf(WebhookDelivery.Status.allCases.map(\.rawValue))
    public static let webhookURL = Rule.url(maxLength: 2048).described("Where events are POSTed: an https URL whose host resolves to public addresses only.")
    public static let webhookDescription = Rule.maxLength(200).described("A note for people.")
    public static let webhookEventTypes = Rule(description: "Only these event types (all when absent or empty).")
    public static let webhookEnvironment = Rule.appEnvironment.described("Only this environment's events.")
}
