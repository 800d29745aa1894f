import Foundation

/// A small bar chart as inline SVG, drawn on the server: one bar per day, and a text alternative
/// (`<title>`, `<desc>`) for screen readers. Its labels (the first and last day, the largest value) are
/// HTML beside the SVG, not SVG text: text inside the SVG scales with the chart, and in a narrow card or
/// on a phone it shrank to 7 px; as HTML it keeps the page's size and colour. Values are numbers and
/// labels are escaped, so the markup can be placed in a page as it is.
struct Chart {
    let title: String
    let values: [Double]
    /// How a value is written (in the description and the maximum's label).
    let format: (Double) -> String
    /// The first and last day, written under the bars.
    let firstLabel: String
    let lastLabel: String

    static let width = 300.0
    static let height = 80.0

    /// The largest value, written above the chart.
    var maxLabel: String { "max " + format(values.max() ?? 0) }

    var svg: String {
        let top = max(values.max() ?? 0, 1)
        let slot = Self.width / Double(max(values.count, 1))
        let plot = Self.height - 1
        var bars = ""
        for (index, value) in values.enumerated() {
            let height = (value / top * (plot - 4)).rounded(toPlaces: 1)
            let x = (Double(index) * slot + 1).rounded(toPlaces: 1)
            bars += #"<rect x="\#(x)" y="\#((plot - height).rounded(toPlaces: 1))" width="\#(max(slot - 2, 1).rounded(toPlaces: 1))" height="\#(height)"/>"#
        }
        let total = values.reduce(0, +)
        let description =
            "\(values.count) days from \(firstLabel) to \(lastLabel); highest \(format(values.max() ?? 0)), last \(format(values.last ?? 0)), total \(format(total))"
        return """
            <svg class="chart" viewBox="0 0 \(Int(Self.width)) \(Int(Self.height))" preserveAspectRatio="none" role="img" \
            aria-labelledby="\(id)-t \(id)-d" xmlns="http://www.w3.org/2000/svg"><title id="\(id)-t">\(escape(title))</title>\
            <desc id="\(id)-d">\(escape(description))</desc><g class="bars">\(bars)</g>\
            <line x1="0" y1="\(plot)" x2="\(Int(Self.width))" y2="\(plot)" class="axis"/></svg>
            """
    }

    private var id: String { "c" + String(title.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init)).lowercased() }
}

/// `&`, `<`, `>`, `"` and `'` written as entities.
func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for character in text {
        switch character {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&#39;"
        default: out.append(character)
        }
    }
    return out
}

extension Double {
    func rounded(toPlaces places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (self * scale).rounded() / scale
    }
}
