import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `openssl speed -seconds 3 ecdsap256`: single-core ECDSA P-256 signatures per second on this machine,
/// the yardstick for the signing figures. nil when openssl is not installed or prints nothing usable.
enum OpenSSLSpeed {
    static func measure() -> Double? {
        guard let text = run(["openssl", "speed", "-seconds", "3", "ecdsap256"]) else { return nil }
        // "256 bits ecdsa (nistp256)   0.0000s   0.0001s  43029.0  13923.1": sign/s is the next-to-last column.
        guard let row = text.split(separator: "\n").last(where: { $0.contains("256 bits ecdsa (nistp256)") }) else { return nil }
        let columns = row.split(separator: " ")
        return columns.count >= 2 ? Double(columns[columns.count - 2]) : nil
    }

    /// Runs a program found on PATH and returns its standard output. Spawned with an empty signal mask and
    /// default handlers: this process's threads block signals (SIGALRM among them), a child inherits that
    /// mask, and `openssl speed` ends each timed run with SIGALRM, so under Foundation's `Process` it never ends.
    static func run(_ arguments: [String]) -> String? {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ)
        close(fds[1])
        defer { close(fds[0]) }
        guard spawned == 0 else { return nil }

        var output = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fds[0], &chunk, chunk.count)
            if count <= 0 { break }
            output.append(contentsOf: chunk[0..<count])
        }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return String(decoding: output, as: UTF8.self)
    }
}
