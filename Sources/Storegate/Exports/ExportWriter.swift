import Foundation

/// Writes export rows as CSV or newline-delimited JSON.
public enum ExportWriter {
    /// A text cell of CSV, as exports write one (quoted when needed, a formula made text).
    public static func cell(_ text: String) -> String { csvCell(text, kind: .text) }

    static func text(_ rows: [[String?]], columns: [ExportColumn], format: ExportFormat, header: Bool) -> String {
        switch format {
        case .csv:
            var out = header ? columns.map { csvCell($0.name, kind: .text) }.joined(separator: ",") + "\r\n" : ""
            for row in rows {
                out += zip(columns, row).map { column, value in value.map { csvCell($0, kind: column.kind) } ?? "" }.joined(separator: ",") + "\r\n"
            }
            return out
        case .ndjson:
            var out = ""
            for row in rows {
                let members = zip(columns, row).map { column, value in jsonString(column.name) + ":" + jsonValue(value, kind: column.kind) }
                out += "{" + members.joined(separator: ",") + "}\n"
            }
            return out
        }
    }

    /// A CSV cell: quoted when it holds a comma, quote or line break; a text cell that a spreadsheet would
    /// read as a formula is written after a `'`.
    static func csvCell(_ value: String, kind: ExportColumn.Kind) -> String {
        var cell = value
        if kind == .text || kind == .json, let first = cell.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) { cell = "'" + cell }
        guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func jsonValue(_ value: String?, kind: ExportColumn.Kind) -> String {
        guard let value else { return "null" }
        switch kind {
        case .integer where Int64(value) != nil: return value
        case .json: return value
        default: return jsonString(value)
        }
    }

    static func jsonString(_ text: String) -> String {
        String(decoding: (try? encoder.encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()
}
