import ArgumentParser
import Storegate
import StoregateServer

struct OpenRPCCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openrpc", abstract: "Print the OpenRPC document generated from the method registry (api-spec/openrpc.json).")

    func run() async throws {
        print(StoregateRPC.documentText, terminator: "")
    }
}
