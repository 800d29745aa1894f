import Foundation
import Storegate
import Testing

@Suite struct ExchangeRateTests {
    @Test func ratesAreReadFromCSVAndABadLineIsNamed() throws {
        let rates = try ExchangeRate.parse(csv: "date,currency,target,rate\r\n2026-11-01,EUR,USD,1.0812\r\n\r\n2026-11-02, JPY , USD , 0.0067\n")
        #expect(rates.count == 2)
        #expect(rates[0].rate == Decimal(string: "1.0812"))
        #expect(rates[1].currency == "JPY")
        #expect(rates[1].day == (try Date("2026-11-02T00:00:00Z", strategy: .iso8601)))
        for (csv, field) in [
            ("currency,date,target,rate\n", "line 1"), ("date,currency,target,rate\n2026-11-01,EUR,USD,1\n2026-13-01,EUR,USD,1\n", "line 3"),
            ("date,currency,target,rate\n2026-11-01,eur,USD,1\n", "line 2"), ("date,currency,target,rate\n2026-11-01,EUR,USD,-1\n", "line 2"),
            ("date,currency,target,rate\n2026-11-01,EUR,USD\n", "line 2"),
        ] {
            #expect {
                try ExchangeRate.parse(csv: csv)
            } throws: { error in
                if case StoregateError.invalid(let named, _) = error { return named == field }
                return false
            }
        }
    }
}
