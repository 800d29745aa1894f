// swift-tools-version: 6.1
import CompilerPluginSupport
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "storegate",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "storegate", targets: ["StoregateCLI"]),
        .executable(name: "storegate-bench", targets: ["StoregateBench"]),
        .library(name: "AppStoreServer", targets: ["AppStoreServer"]),
    ],
    dependencies: [
        // One trait, not the two by default: SwiftPM 6.3 passes a package's traits as -D flags in a Set's
        // order, which changes from one build to the next, and recompiled every Hummingbird module on about
        // half of them (swiftlang/swift-package-manager#10525). ConfigurationSupport (swift-configuration's
        // readers) is not used here.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.0", traits: ["FullFoundation"]),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.3.0"),
        .package(url: "https://github.com/swiftlang/swift-syntax.git", from: "603.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.0"),
        // Tests only: `assertMacro`, the expansion tests of JSONRPCMacros.
        .package(url: "https://github.com/pointfreeco/swift-macro-testing.git", from: "0.7.0"),
    ],
    targets: [
        // The contract's declarations, which the domain may use: `@RPCParams`, `@RPCObject`, `@Field`, rules,
        // JSON Schema types and JSON values. A field is declared once, here, for the engine to check and document.
        .target(name: "Contract", dependencies: ["JSONRPCMacros"], swiftSettings: swiftSettings),
        // Protocol engine, for the edge only: JSON-RPC 2.0 parsing, batching, dispatch, errors, OpenRPC generation.
        .target(name: "JSONRPC", dependencies: ["Contract"], swiftSettings: swiftSettings),
        // The compiler plugin that reads those declarations.
        .macro(
            name: "JSONRPCMacros",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ],
            swiftSettings: swiftSettings
        ),
        // Makes StoregatePostgres's migration files into Swift as it builds (run by the plugin below).
        .executableTarget(name: "MigrationEmbedder", swiftSettings: swiftSettings),
        .plugin(name: "EmbedMigrations", capability: .buildTool(), dependencies: ["MigrationEmbedder"]),
        // Envelope encryption of private keys (AES-256-GCM data keys wrapped by a master key).
        .target(
            name: "KeyVault",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        // Apple-facing layer: no tenancy, no database. Uses the contract's JSON writer.
        .target(
            name: "AppStoreServer",
            dependencies: [
                "Contract",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Persistence over PostgreSQL: the control schema, a schema per tenant, migrations, units of work.
        // Its migrations are SQL files (`Migrations/<Chain>/NN-name.sql`), made into Swift as it builds.
        .target(
            name: "StoregatePostgres",
            dependencies: [
                "Storegate", "KeyVault", "AppStoreServer",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings,
            plugins: ["EmbedMigrations"]
        ),
        // Domain: its types, the persistence it needs (protocols), and the services: tenants, apps, offers,
        // accounts, refunds, subscriptions, notifications, events and webhooks, jobs.
        .target(
            name: "Storegate",
            dependencies: [
                "KeyVault", "AppStoreServer", "Contract",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
            ],
            swiftSettings: swiftSettings
        ),
        // The support console at /console: server-rendered HTML (Mustache templates) over the domain's
        // services, for a tenant's people, with sessions, CSRF tokens and roles.
        .target(
            name: "StoregateConsole",
            dependencies: [
                "Storegate", "AppStoreServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // HTTP transport: Hummingbird routes, auth, JSON-RPC binding, the console's routes, metrics.
        .target(
            name: "StoregateServer",
            dependencies: [
                "Storegate", "StoregateConsole", "JSONRPC", "AppStoreServer",
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // A local App Store Server API and notification sender with its own test CA.
        .target(
            name: "AppStoreSimulator",
            dependencies: [
                "AppStoreServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "StoregateCLI",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                "StoregateServer", "Storegate", "StoregatePostgres", "KeyVault", "AppStoreServer", "AppStoreSimulator", "JSONRPC",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // Load figures for the README: offers signed, status reads and notifications ingested per second, over HTTP.
        .executableTarget(
            name: "StoregateBench",
            dependencies: [
                "StoregateServer", "Storegate", "StoregatePostgres", "KeyVault", "AppStoreServer", "AppStoreSimulator",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Apple's test vectors in ../shared, for both test targets.
        .target(name: "TestVectors", path: "Tests/TestVectors", swiftSettings: swiftSettings),
        // Unit tests: JSON-RPC, the API's declared contract, Apple's formats; no PostgreSQL, seconds.
        .testTarget(
            name: "StoregateUnitTests",
            dependencies: [
                "JSONRPC", "KeyVault", "AppStoreServer", "Storegate", "StoregatePostgres", "StoregateServer", "TestVectors",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: swiftSettings
        ),
        // The macros' expansions and diagnostics, source in and source out; no PostgreSQL, seconds.
        .testTarget(
            name: "JSONRPCMacrosTests",
            dependencies: [
                "JSONRPCMacros",
                .product(name: "MacroTesting", package: "swift-macro-testing"),
            ],
            swiftSettings: swiftSettings
        ),
        // Integration tests: real PostgreSQL, the App Store simulator over HTTP, the built CLI.
        .testTarget(
            name: "StoregateTests",
            dependencies: [
                "TestVectors", "StoregateServer", "Storegate", "StoregatePostgres", "JSONRPC", "KeyVault", "AppStoreServer", "AppStoreSimulator",
                "StoregateCLI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
