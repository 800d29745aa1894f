import AppStoreSimulator
import ArgumentParser
import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import UnixSignals

struct SimulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulator", abstract: "The App Store simulator: run it, and tell it your tenants' apps.",
        subcommands: [Start.self, Register.self], defaultSubcommand: Start.self)
}

extension SimulatorCommand {
    struct Start: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "start",
            abstract: "Run the App Store simulator (the default): Apple's server API, signed with its own test CA, and a scenario API.",
            discussion: """
                The App Store Server API is under /inApps/ (bearer tokens are checked against keys registered through \
                POST /simulator/apps/{bundleId}/keys, or `storegate simulator register`). Drive it with POST /simulator/apps, \
                /simulator/purchases, /simulator/subscriptions/{id}/renew|fail-renewal|expire|auto-renew, \
                /simulator/transactions/{id}/refund-request|refund|decline-refund|reverse-refund and /simulator/faults. \
                GET /simulator/root.der is its root certificate: trust it only in development.
                """)

        @Option(help: "Address to listen on.") var host = "127.0.0.1"
        @Option(help: "Port to listen on; 0 picks a free one.") var port = 9090
        @Option(help: "Scale Apple's notification retry schedule (1, 12, 24, 48, 72 hours); 0.001 makes an hour 3.6 s.") var timeScale = 1.0
        @Option(help: "Write the simulator's root certificate (DER) to this file.") var exportRoot: String?
        @Option(
            help: ArgumentHelp(
                "Keep what the simulator knows (apps, keys, purchases, notifications, its certificates, the next ID) in this directory across restarts.",
                valueName: "directory"))
        var stateDir: String?

        func run() async throws {
            Runtime.bootstrapLogging()
            let logger = Logger(label: "storegate.simulator")
            let http = NotificationSender.makeHTTPClient()
            let sender = NotificationSender(http: http, timeScale: timeScale, logger: logger)
            var ca: SimulatorCA?
            var stateFile: URL?
            let store = SimulatorStore()
            if let stateDir {
                let directory = URL(fileURLWithPath: stateDir)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                let caFile = directory.appendingPathComponent("simulator-ca.json")
                if let data = FileManager.default.contents(atPath: caFile.path) {
                    do { ca = try SimulatorCA(try JSONDecoder().decode(SimulatorCA.Saved.self, from: data)) } catch {
                        throw Runtime.fail("\(caFile.path) is not a simulator CA: \(error); remove it to start afresh")
                    }
                } else {
                    let made = try SimulatorCA()
                    try JSONEncoder().encode(try made.saved).write(to: caFile, options: .atomic)
                    ca = made
                }
                let file = directory.appendingPathComponent("simulator-state.json")
                do { try await store.load(from: file) } catch { throw Runtime.fail("\(file.path) cannot be read: \(error); remove it to start afresh") }
                stateFile = file
            }
            let simulator = try AppStoreSimulator(store: store, ca: ca, sender: sender, stateFile: stateFile)
            if let exportRoot { try simulator.ca.rootDER.write(to: URL(fileURLWithPath: exportRoot)) }
            let app = simulator.application(host: host, port: port, logger: logger) { port in
                logger.info("App Store simulator listening", metadata: ["port": .stringConvertible(port)])
            }
            do {
                try await Runtime.listening(host: host, port: port, what: "storegate simulator") {
                    try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
                }
            } catch {
                sender.shutdown()
                try await http.shutdown()
                throw error
            }
            sender.shutdown()
            try await http.shutdown()
            if let stateFile { try await store.save(to: stateFile) }
        }
    }
}
