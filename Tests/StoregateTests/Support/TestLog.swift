import Foundation
import Logging

/// Loggers for the servers, pools and simulators tests start: silent, unless `STOREGATE_TEST_LOG` names a
/// level (`STOREGATE_TEST_LOG=warning swift test --filter …`), when they write to standard error at it: how a
/// failure seen only on a busy machine is read.
enum TestLog {
    static let level = ProcessInfo.processInfo.environment["STOREGATE_TEST_LOG"].flatMap(Logger.Level.init(rawValue:))

    static func logger(_ label: String) -> Logger {
        guard let level else { return Logger(label: label, factory: { _ in SwiftLogNoOpLogHandler() }) }
        var logger = Logger(label: label, factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = level
        return logger
    }
}
