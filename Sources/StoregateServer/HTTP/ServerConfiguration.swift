import Foundation

/// How the server listens and what it accepts. Every field has a CLI flag and an environment variable.
public struct ServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// PEM certificate chain and key: when both are set the server speaks HTTPS itself.
    public var tlsCertificatePath: String?
    public var tlsKeyPath: String?
    /// Largest accepted request body, in bytes.
    public var maxBodyBytes = 1 << 20
    /// Most requests in one JSON-RPC batch.
    public var maxBatchSize = 100
    /// How many calls of one batch run at once. Concurrent offer signings share one audit commit, so a
    /// batch of 100 signings costs a few database round trips, not one per call.
    public var batchConcurrency = 32
    /// Whether this process runs the job queue worker (notification processing, consumption answers).
    public var runsJobWorker = true
    /// A connection with no request in progress for this long is closed. The clock restarts only when a
    /// whole request head (or a body part) arrives, so it is also the limit for sending headers.
    public var idleTimeout: Duration = .seconds(15)
    /// How long a graceful shutdown (SIGTERM) waits for requests in flight; then they are cancelled.
    public var shutdownGracePeriod: Duration = .seconds(10)
    /// The address Apple and clients reach this server at, for the URLs it gives out (notification URLs, the
    /// realtime URL it configures with Apple). nil: its own, `http(s)://<host>:<the port it listens on>`.
    public var publicURL: String?

    public init() {}
}
