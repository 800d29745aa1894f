import Foundation

/// Apple's own test vectors in ../shared/vectors/apple.
enum AppleVectors {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../../shared/vectors/apple")

    static func data(_ path: String) throws -> Data { try Data(contentsOf: root.appendingPathComponent(path)) }
    static func text(_ path: String) throws -> String { try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) }
}
