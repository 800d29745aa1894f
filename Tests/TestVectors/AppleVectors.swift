import Foundation

/// Apple's own test vectors in ../shared/vectors/apple.
public enum AppleVectors {
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../shared/vectors/apple")

    public static func data(_ path: String) throws -> Data { try Data(contentsOf: root.appendingPathComponent(path)) }
    public static func text(_ path: String) throws -> String { try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) }
}
