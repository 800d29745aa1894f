#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The CPU time this process has used (all threads, user and system), in seconds: divided by the work
/// done, a figure that a shared machine's other load moves much less than a rate does.
enum ProcessCPU {
    /// `clock()` counts in microseconds (POSIX fixes CLOCKS_PER_SEC at 1,000,000).
    static func seconds() -> Double { Double(clock()) / 1_000_000 }
}
