import AppStoreServer
import AppStoreSimulator
import Foundation
import Storegate
import Testing

/// `exports.read`, page by page, opened by Python's `csv` module: stable columns, every row once, and no
/// cell a spreadsheet would run as a formula.
@Suite struct ExportTests {
    static func parse(_ csv: String) async throws -> [[String]] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString).csv")
        try Data(csv.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = "import csv, json, sys; print(json.dumps(list(csv.reader(open(sys.argv[1], newline='')))))"
        let run = try await Subprocess.run("/usr/bin/env", ["python3", "-c", script, file.path], environment: ProcessInfo.processInfo.environment)
        #expect(run.status == 0, "\(run.stderr)")
        return try JSONDecoder().decode([[String]].self, from: Data(run.stdout.utf8))
    }

    /// Every page of an export, passing each `next` on.
    static func read(_ s: Storefront, _ params: [String: Any]) async throws -> (text: String, pages: Int) {
        var text = ""
        var pages = 0
        var cursor: String?
        repeat {
            var call = params
            call["cursor"] = cursor
            let page = try await s.result("exports.read", call)
            text += page["text"] as? String ?? ""
            cursor = page["next"] as? String
            pages += 1
        } while cursor != nil && pages < 50
        return (text, pages)
    }

    @Test func transactionsAreReadPageByPageAsCSVASpreadsheetOpensSafely() async throws {
        try await Storefront.with(slug: "exports") { s in
            let token = try #require(UUID(uuidString: try await s.result("accounts.ensure", ["customerId": "xena"])["appAccountToken"] as? String ?? ""))
            var ids: [String] = []
            for n in 0..<5 {
                var purchase = AppStoreServerAPIClientTests.subscription("xena-device", token: token)
                purchase.purchaseDate = Date().addingTimeInterval(Double(n - 10) * 86_400)
                if n == 2 {
                    purchase.offerType = .offerCode
                    purchase.offerIdentifier = #"=HYPERLINK("http://evil.example","a, b")"#
                }
                ids.append(try #require(try await s.simulator.purchase(purchase).transactionId))
            }
            try await s.processed(5)
            let range: [String: Any] = [
                "what": "transactions", "from": ISO8601DateFormatter().string(from: Date().addingTimeInterval(-30 * 86_400)),
                "to": ISO8601DateFormatter().string(from: Date().addingTimeInterval(86_400)), "limit": 2,
            ]
            let (csv, pages) = try await Self.read(s, range)
            #expect(pages == 3, "2 + 2 + 1 rows")
            let table = try await Self.parse(csv)
            #expect(table.first == ExportKind.transactions.columns.map(\.name), "the header, once")
            let rows = table.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(table[0], $0)) }
            #expect(rows.map { $0["transactionId"] } == ids, "every transaction once, by purchase date")
            #expect(rows.allSatisfy { $0["customerId"] == "xena" && $0["price"] == "990" && $0["currency"] == "USD" })
            #expect(rows[2]["offerIdentifier"] == #"'=HYPERLINK("http://evil.example","a, b")"#, "a formula is text, its comma and quotes kept")
            #expect(rows.allSatisfy { ($0["purchaseDate"] ?? "").hasSuffix("Z") })

            // The same as newline-delimited JSON: one object a line, numbers as numbers.
            var ndjson = range
            ndjson["format"] = "ndjson"
            ndjson["limit"] = 10
            let lines = try await Self.read(s, ndjson).text.split(separator: "\n")
            #expect(lines.count == 5)
            let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
            #expect(first["price"] as? Int == 990)
            #expect(first["transactionId"] as? String == ids[0])

            // Events and subscriptions, and a cursor that is not one.
            let events = try await Self.parse(try await Self.read(s, ["what": "events", "from": range["from"]!, "to": range["to"]!]).text)
            #expect(events.first == ExportKind.events.columns.map(\.name))
            #expect(events.count > 10)
            let subscriptions = try await Self.parse(
                try await Self.read(s, ["what": "subscriptions", "from": range["from"]!, "to": range["to"]!]).text)
            #expect(subscriptions.count == 6, "a header and five subscriptions")
            let refused = try await s.call("exports.read", ["what": "transactions", "from": range["from"]!, "to": range["to"]!, "cursor": "%%%"])
            #expect(((refused["error"] as? [String: Any])?["data"] as? [String: Any])?["field"] as? String == "cursor")
        }
    }
}
