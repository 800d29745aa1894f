import Contract
import Foundation
import Testing

@testable import Storegate

/// Free text (a customer ID, a tenant's name) is trimmed and checked on every call that names it: the quick
/// paths for printable ASCII answer exactly what the scalars' properties and Foundation's trimming answer.
@Suite struct TextRuleTests {
    static let samples = [
        "bench-customer", "a", " ", "   ", " padded ", "\ttabbed\t", "\u{00A0}nbsp\u{3000}", "\u{3000}", "line\nbreak", "\n", "ctrl\u{07}",
        "Ünïcode", "emoji 🙂", "\u{FFFD}", "", "x\u{2028}", "\u{2003}em\u{2003}", String(repeating: "z", count: 128), String(repeating: "z", count: 129),
        String(repeating: "é", count: 128), String(repeating: "é", count: 129), "~!@#$%^&*()_+{}|:\"<>?`-=[]\\;',./", " \u{301}x", "x\u{301} ", "\u{7F}",
        "del\u{7F}",
    ]

    @Test func trimmingIsFoundationsWhitespaceTrimming() {
        for sample in Self.samples {
            #expect(Validate.trimmingWhitespace(sample) == sample.trimmingCharacters(in: .whitespaces), "\(sample.debugDescription)")
        }
    }

    @Test func printableASCIIIsJudgedAsEveryOtherText() {
        let rule = Rule.text(max: 128)
        for sample in Self.samples {
            let scalars = sample.unicodeScalars
            var expected: String?
            if scalars.count < 1 {
                expected = "must not be empty"
            } else if scalars.count > 128 {
                expected = "must be at most 128 characters"
            } else if scalars.allSatisfy(\.properties.isWhitespace) {
                expected = "must not be empty"
            } else if scalars.contains(where: { $0.properties.generalCategory == .control || $0 == "\u{FFFD}" }) {
                expected = "must be valid UTF-8 text without control characters"
            }
            #expect(rule.violation(sample) == expected, "\(sample.debugDescription)")
        }
    }
}
