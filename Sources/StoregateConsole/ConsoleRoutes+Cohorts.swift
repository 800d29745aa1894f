import Foundation
import Storegate

/// The overview's cohort table and ARPU by month (`metrics.cohorts`), and their CSV.
extension ConsoleRoutes {
    /// The cohort table's model: a row per cohort with its share subscribed each month since (at most 12
    /// columns), and a row per month with its active customers and ARPU per currency.
    static func cohortModel(_ report: CohortsReport) -> [String: Any] {
        let columns = min(12, report.cohorts.map(\.months.count).max() ?? 0)
        let money = { (list: [CohortMoney], figure: (CohortMoney) -> Int64?) in
            list.compactMap { m in figure(m).map { "\(m.currency) " + String(format: "%.2f", Double($0) / 1000) } }.joined(separator: ", ")
        }
        return [
            "cohortHeads": (0..<columns).map { ["label": "Month \($0)"] },
            "cohorts": report.cohorts.map { cohort in
                [
                    "start": String(FiguresRange.text(cohort.start).prefix(7)), "customers": String(cohort.customers),
                    "shares": (0..<columns).map { n in
                        ["value": n < cohort.months.count ? cohort.months[n].share.map { String(format: "%.0f%%", $0 * 100) } ?? "–" : ""]
                    },
                    "revenue": money(cohort.money) { $0.netRevenue },
                ] as [String: Any]
            },
            "arpu": report.months.map { month in
                [
                    "start": String(FiguresRange.text(month.start).prefix(7)), "active": String(month.activeCustomers),
                    "arpu": money(month.money) { $0.arpu },
                ]
            },
        ]
    }

    /// The cohort table as CSV, a row per cohort, month since and currency ("" for a month without money).
    static func cohortsCSV(_ report: CohortsReport) -> String {
        var csv = "cohort,customers,monthsLater,month,subscribed,share,currency,netRevenue,netProceeds\r\n"
        for cohort in report.cohorts {
            for month in cohort.months {
                let head = [
                    FiguresRange.text(cohort.start), String(cohort.customers), String(month.monthsLater), FiguresRange.text(month.start),
                    String(month.subscribed), month.share.map { String(format: "%.4f", $0) } ?? "",
                ].joined(separator: ",")
                if month.money.isEmpty { csv += head + ",,0.000,0.000\r\n" }
                for m in month.money {
                    csv += head + "," + ExportWriter.cell(m.currency) + "," + Self.amount(m.netRevenue) + "," + Self.amount(m.netProceeds) + "\r\n"
                }
            }
        }
        return csv
    }

    /// ARPU by month as CSV, a row per month and currency.
    static func arpuCSV(_ report: CohortsReport) -> String {
        var csv = "month,activeCustomers,currency,netRevenue,arpu\r\n"
        for month in report.months {
            for m in month.money {
                csv +=
                    [FiguresRange.text(month.start), String(month.activeCustomers), ExportWriter.cell(m.currency), Self.amount(m.netRevenue)]
                    .joined(separator: ",") + "," + (m.arpu.map(Self.amount) ?? "") + "\r\n"
            }
        }
        return csv
    }

    /// Milliunits as units with three decimals.
    static func amount(_ milliunits: Int64) -> String { String(format: "%.3f", Double(milliunits) / 1000) }
}
