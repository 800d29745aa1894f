import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Runs programs for tests without Foundation's `Process`, whose exit detection waits for a socket the
/// child inherits: a daemon the child starts (PostgreSQL) or a process spawned at the same moment can
/// hold it open, and the wait never ends. Here the child keeps only stdin, stdout and stderr, and its
/// exit is `waitpid`, off the cooperative thread pool.
struct Subprocess: Sendable {
    let pid: pid_t
    private let exit: Task<Int32, Never>
    private let output: Task<(stdout: Data, stderr: Data), Never>

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts `executable` with `arguments` and exactly `environment`.
    init(_ executable: String, _ arguments: [String], environment: [String: String]) throws {
        var stdoutPipe: [Int32] = [0, 0]
        var stderrPipe: [Int32] = [0, 0]
        guard pipe(&stdoutPipe) == 0, pipe(&stderrPipe) == 0 else { throw Failed(description: "pipe failed") }
        for fd in stdoutPipe + stderrPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
        _ = Self.closeFrom?(&actions, 3)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        close(stdoutPipe[1])
        close(stderrPipe[1])
        guard spawned == 0 else {
            close(stdoutPipe[0])
            close(stderrPipe[0])
            throw Failed(description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        self.pid = pid
        let out = stdoutPipe[0]
        let err = stderrPipe[0]
        output = Task.detached { (await Self.drain(out), await Self.drain(err)) }
        exit = Task.detached { await Self.wait(pid) }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc module does not declare.
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Runs to the end (killed after `limit`, when given): the exit status and what it printed.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String], limit: Duration? = nil
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        let process = try Subprocess(executable, arguments, environment: environment)
        if let limit, await process.waitForExit(upTo: limit) == nil { process.signal(SIGKILL) }
        let status = await process.exit.value
        let (stdout, stderr) = await process.output.value
        return (status, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    func signal(_ signal: Int32) { kill(pid, signal) }

    /// The exit status, or nil if the process is still running after `limit`. (A task group would wait
    /// for the child awaiting the exit even after the limit: awaiting a task's value ignores cancellation.)
    func waitForExit(upTo limit: Duration) async -> Int32? {
        let exit = exit
        let status = Mutex<Int32?>(nil)
        let waiter = Task {
            let value = await exit.value
            status.withLock { $0 = value }
        }
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline, status.withLock({ $0 }) == nil { try? await Task.sleep(for: .milliseconds(20)) }
        waiter.cancel()
        return status.withLock { $0 }
    }

    /// Everything `fd` delivers until end of file, read on a thread of its own.
    private static func drain(_ fd: Int32) async -> Data {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var data = Data()
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = read(fd, &buffer, buffer.count)
                    if count > 0 {
                        data.append(contentsOf: buffer[0..<count])
                    } else if count == 0 || errno != EINTR {
                        break
                    }
                }
                close(fd)
                continuation.resume(returning: data)
            }
        }
    }

    /// The exit status of `pid` (128 + the signal if a signal ended it), waited for on a thread of its own.
    private static func wait(_ pid: pid_t) async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                let exited = status & 0x7f == 0
                continuation.resume(returning: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f))
            }
        }
    }
}
