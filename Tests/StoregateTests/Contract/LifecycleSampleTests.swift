import Foundation
import JSONRPC
import Storegate
import Testing

@testable import StoregateServer

/// The lifecycle samples: one per type, each a valid `events.list` answer in the OpenRPC document, and
/// the same `data` as docs/API.md shows.
@Suite struct LifecycleSampleTests {
    static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../docs/API.md")

    static func object(_ text: some StringProtocol) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func eachLifecycleTypeHasOneSample() throws {
        let sampled = try EventMethods.lifecycleSamples.map { try Self.object($0)["type"] as? String ?? "" }
        let lifecycle = Event.Kind.allCases.map(\.rawValue).filter {
            ($0.hasPrefix("subscription.") || $0.hasPrefix("purchase."))
                && !["subscription.updated", "subscription.renewalExtended", "purchase.created"].contains($0)
        }
        #expect(sampled.sorted() == lifecycle.sorted())
        // The raw layer (`purchase.created`, `subscription.updated`) and Storegate's own extension event are
        // not lifecycle events; the list the metrics' SQL reads says the same.
        #expect(LifecycleEvents.kinds.map(\.rawValue).sorted() == lifecycle.sorted())
        #expect(LifecycleEvents.priced.isSubset(of: LifecycleEvents.kinds))
        #expect(EventMethods.lifecycleExamples.count == lifecycle.count)
    }

    @Test func examplesAreCallsTheMethodTakesAndAnswersItDocuments() throws {
        let method = try #require(StoregateRPC.registry.methods["events.list"])
        for example in method.description.examples {
            try method.checkParams(.object(example.params.map { (key: $0.name, value: $0.value) }))
            let violations = SchemaValidator.violations(of: example.result, against: method.description.resultSchema)
            #expect(violations.isEmpty, "\(example.name): \(violations)")
        }
    }

    @Test func docsShowTheSamplesData() throws {
        let lines = try String(contentsOf: Self.docs, encoding: .utf8).split(separator: "\n")
        for text in EventMethods.lifecycleSamples {
            let sample = try Self.object(text)
            let prefix = "- `\(sample["type"] as? String ?? "")`: `"
            let line = try #require(lines.first { $0.hasPrefix(prefix) }, "docs/API.md shows \(prefix)")
            let shown = try Self.object(line.dropFirst(prefix.count).dropLast())
            #expect(NSDictionary(dictionary: shown) == NSDictionary(dictionary: sample["data"] as? [String: Any] ?? [:]), "\(prefix)")
        }
    }
}
