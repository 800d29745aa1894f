/// How much later than its deadline a call may be seen to end when the whole suite runs on two cores.
///
/// The deadline is the server's; what is added here is scheduling on a loaded machine: the suites run side by
/// side, some with PostgreSQL clusters, a Chromium or processes of their own, and a fresh-clone CI saw an
/// 800 ms readiness deadline answered after 2.4 s. A bound of deadline + allowance still tells a call ended by
/// its deadline from one that waits on a database that never answers (crashed, frozen, or not yet promoted):
/// that one would not end at all.
extension Duration {
    static let busyMachine = Duration.seconds(3)
}

// A suite's `.timeLimit(.minutes(10))` is a guard against a hang, not a bound on speed. The suites run side by
// side on two cores (CI's, or beside stress-ng), where a suite that takes 40 s alone ran past 2 minutes while
// making progress (three WebhookTests failed that way under their former 2-minute limit); a hang never ends, so
// 10 minutes tell the two apart. Every call that could wait forever has a deadline of its own.
