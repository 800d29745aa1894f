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

    /// The direct formatter writes what Foundation's `uuidString.lowercased()` does.
    @Test func lowercasedStringIsFoundationsTextLowercased() {
        let fixed = [
            UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
            UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)),
        ]
        for uuid in fixed + (0..<1000).map({ _ in UUID() }) {
            #expect(uuid.lowercasedString == uuid.uuidString.lowercased())
        }
        #expect(UUID(uuidString: "7389A31A-FB6D-4569-A2A6-DB7D85D84813")?.lowercasedString == "7389a31a-fb6d-4569-a2a6-db7d85d84813")
    }
}
