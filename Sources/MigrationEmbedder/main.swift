import Foundation

// Writes the migrations in `Migrations/<Chain>/NN-name.sql` as Swift: `extension <Chain>Chain { static
// let migrations: [Migration] }`, versions in order. Run by the EmbedMigrations build plugin.
//
// A migration file: its first line is `-- <name>` (kept in the ledger), then statements, each ended by a
// line that is only `;`. Comment lines and blank lines before a statement document it and are not part
// of it; a statement's text (and so its checksum) is exactly the lines between. A comment line
// `-- former checksum: <hex>` names a checksum the migration had before an edit whose difference a
// later migration makes up for (a ledger row with it is accepted).

struct Failure: Error, CustomStringConvertible {
    let description: String
}

struct MigrationFile {
    let chain: String
    let version: Int
    let name: String
    let statements: [String]
    let formerChecksums: [String]

    init(path: String) throws {
        let url = URL(fileURLWithPath: path)
        chain = url.deletingLastPathComponent().lastPathComponent
        let file = url.lastPathComponent
        guard let dash = file.firstIndex(of: "-"), let version = Int(file[..<dash]), version > 0 else {
            throw Failure(description: "\(path):1: error: a migration is named NN-what-it-does.sql, NN its version")
        }
        self.version = version
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let first = lines.first, first.hasPrefix("-- "), first.count > 3 else {
            throw Failure(description: "\(path):1: error: the first line is `-- <the migration's name>`")
        }
        name = String(first.dropFirst(3))
        var statements: [String] = []
        var current: [String] = []
        var former: [String] = []
        for (number, line) in lines.enumerated().dropFirst() {
            if current.isEmpty, line.hasPrefix("-- former checksum: ") {
                let checksum = String(line.dropFirst("-- former checksum: ".count))
                guard checksum.count == 64, checksum.allSatisfy(\.isHexDigit) else {
                    throw Failure(description: "\(path):\(number + 1): error: a former checksum is 64 hexadecimal digits")
                }
                former.append(checksum.lowercased())
            } else if line == ";" {
                guard !current.isEmpty else { throw Failure(description: "\(path):\(number + 1): error: `;` ends no statement") }
                statements.append(current.joined(separator: "\n"))
                current = []
            } else if current.isEmpty && (line.trimmingCharacters(in: .whitespaces).isEmpty || line.hasPrefix("--")) {
                continue
            } else {
                current.append(line)
            }
        }
        guard current.isEmpty else { throw Failure(description: "\(path):\(lines.count): error: the last statement is not ended by a line `;`") }
        guard !statements.isEmpty else { throw Failure(description: "\(path):1: error: no statements") }
        self.statements = statements
        self.formerChecksums = former
    }
}

/// A Swift string literal of `text`.
func literal(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": out += "\\\\"
        case "\"": out += "\\\""
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        case "\r": out += "\\r"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

do {
    let arguments = CommandLine.arguments.dropFirst()
    guard let output = arguments.first else { throw Failure(description: "usage: MigrationEmbedder <output.swift> <migration.sql>...") }
    let files = try arguments.dropFirst().map(MigrationFile.init(path:))
    var swift = "// Made at build time from Migrations/*/NN-name.sql by MigrationEmbedder (the EmbedMigrations plugin).\n"
    for chain in Set(files.map(\.chain)).sorted() {
        let migrations = files.filter { $0.chain == chain }.sorted { $0.version < $1.version }
        for (index, migration) in migrations.enumerated() where migration.version != index + 1 {
            throw Failure(
                description: "error: \(chain) migrations must be numbered 1, 2, 3, … with none missing or twice; found \(migration.version) at \(index + 1)")
        }
        swift += "\nextension \(chain)Chain {\n    static let migrations: [Migration] = [\n"
        for migration in migrations {
            swift += "        Migration(\(migration.version), \(literal(migration.name)), [\n"
            for statement in migration.statements { swift += "            \(literal(statement)),\n" }
            swift +=
                "        ]\(migration.formerChecksums.isEmpty ? "" : ", formerChecksums: [\(migration.formerChecksums.map(literal).joined(separator: ", "))]")),\n"
        }
        swift += "    ]\n}\n"
    }
    // The same Swift is not written again: a rewritten file (a new modification time) recompiles
    // StoregatePostgres, and this tool runs whenever SwiftPM relinks it, with no migration changed.
    if (try? String(contentsOfFile: output, encoding: .utf8)) != swift {
        try swift.write(toFile: output, atomically: true, encoding: .utf8)
    }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
