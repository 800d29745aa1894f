import AppStoreServer
import Foundation
import Testing

@Suite struct RandomUUIDTests {
    /// Version 4, RFC 4122 variant, and not repeating.
    @Test func versionFourAndDistinct() {
        let made = (0..<1000).map { _ in UUID.random() }
        #expect(Set(made).count == 1000)
        for uuid in made {
            let text = uuid.uuidString
            #expect(Array(text)[14] == "4")
            #expect("89AB".contains(Array(text)[19]))
        }
    }
}
