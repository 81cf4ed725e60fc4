import ChestCore
import FoundationEssentials
import Glibc

/// chestd's recorded track: each new epoch's point appended to `CHEST/track.txt`, the file rewritten atomically
/// with only the kept window once it has grown past it (README "The chest directory").
package final class TrackRecorder {
    package let path: String
    package private(set) var log: TrackLog
    private var fileLines: Int
    /// Kept open between fixes: a point a second is one write, not an open, a write and a close.
    private var appender: FileDescriptor?
    /// The last failure, so that a disk that stays full is reported once, not once a second.
    private var lastFailure: SystemCallError?

    /// The file in a chest directory.
    package static func path(inChest directory: String) -> String { directory + "/track.txt" }

    package init(path: String, window: Double = 6 * 3600, capacity: Int = 21_600) {
        self.path = path
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        log = TrackLog(text: text, window: window, capacity: capacity)
        fileLines = text.split(separator: "\n").count
    }

    /// Points recorded but not yet written, oldest first: they are turned into text when they are written, a few
    /// at a time, not one by one as they come.
    private var waiting: [TrackLog.Point] = []
    /// The text of the points being written, kept between writes for its capacity.
    private var text: [UInt8] = []
    /// When (monotonic seconds) points were last written.
    private var lastWrite = -Double.infinity

    /// Points are written by the fix that finds this long passed since the last write: a receiver at 1 or 2 Hz gets
    /// each point written as it comes, a fast replay or a 10 Hz receiver a write every 0.4 s, not one an epoch (the
    /// write and ext4's update of the file's times were a seventh of chestd's CPU a fix: docs/BENCHMARKS.md
    /// "The fix path's CPU").
    package static let writeInterval = 0.4
    /// The longest a point waits: when no fix comes to write it, the loop does (`writeDeadline`).
    package static let longestWait = 0.5

    /// When (monotonic seconds) the points that wait must be written by `flush` at the latest; nil when none wait.
    /// Later than the next fix of a fast feed, so that the fix writes them and the loop does not wake for it.
    package var writeDeadline: Double? { waiting.isEmpty ? nil : lastWrite + Self.longestWait }

    /// Records a fix received at `monotonic` seconds. A failure is returned for the log when it is new, never
    /// thrown: the track must not stop the daemon.
    package func record(_ fix: Fix, at monotonic: Double) -> SystemCallError? {
        guard let point = log.record(fix) else { return nil }
        if log.needsCompaction(fileLines: fileLines + 1) {
            waiting.removeAll()
            return attempt { () throws(SystemCallError) in
                appender?.close()
                appender = nil
                try AtomicFile.write(Data(log.text.utf8), to: path)
                fileLines = log.points.count
                lastWrite = monotonic
            }
        }
        waiting.append(point)
        fileLines += 1
        return monotonic - lastWrite >= Self.writeInterval ? flush(at: monotonic) : nil
    }

    /// Writes the points that wait.
    package func flush(at monotonic: Double) -> SystemCallError? {
        guard !waiting.isEmpty else { return nil }
        lastWrite = monotonic
        // Points that could not be written are dropped, as a single point was: a disk that stays full must not
        // make chestd hold hours of them.
        defer {
            waiting.removeAll(keepingCapacity: true)
            text.removeAll(keepingCapacity: true)
        }
        for point in waiting { point.appendLine(to: &text) }
        return attempt { () throws(SystemCallError) in
            if appender == nil {
                appender = try FileDescriptor.open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW, permissions: 0o600)
            }
            try appender?.writeAll(text, path: path)
        }
    }

    private func attempt(_ write: () throws(SystemCallError) -> Void) -> SystemCallError? {
        do {
            try write()
            lastFailure = nil
            return nil
        } catch {
            appender?.close()
            appender = nil
            defer { lastFailure = error }
            return error == lastFailure ? nil : error
        }
    }

    deinit { appender?.close() }
}
