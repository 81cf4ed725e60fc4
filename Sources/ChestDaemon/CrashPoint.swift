import FoundationEssentials
import Glibc

/// Named steps where chestd aborts when `CHEST_CRASH_AT` names them, so that the torture suite
/// (scripts/torture.py, docs/RELIABILITY.md) can kill it at each step of an ingest and of an unlock.
/// Unset, as always outside that suite, it costs one comparison.
enum CrashPoint: String, CaseIterable {
    /// Inbox files moved into incoming/, nothing read yet.
    case staged
    /// Files read and checked, the engine not yet told.
    case read
    /// Accepted messages about to move into messages/.
    case storing
    /// Accepted messages in messages/, not yet announced.
    case stored
    /// A refused file's reason written, the file not yet moved beside it.
    case rejecting
    /// A message's state (an unlock) on disk, not yet announced.
    case persisted

    static let chosen = ProcessInfo.processInfo.environment["CHEST_CRASH_AT"].flatMap(CrashPoint.init(rawValue:))

    /// Aborts if this is the chosen step.
    func reached() {
        if Self.chosen == self { abort() }
    }
}
