import ChestCore
import Foundation
import Glibc

/// chestd's recorded track: each new epoch's point appended to `CHEST/track.txt`, the file rewritten atomically
/// with only the kept window once it has grown past it (README "The chest directory").
public final class TrackRecorder {
    public let path: String
    public private(set) var log: TrackLog
    private var fileLines: Int
    /// Kept open between fixes: a point a second is one write, not an open, a write and a close.
    private var appender: FileDescriptor?
    /// The last failure, so that a disk that stays full is reported once, not once a second.
    private var lastFailure: SystemCallError?

    /// The file in a chest directory.
    public static func path(inChest directory: String) -> String { directory + "/track.txt" }

    public init(path: String, window: Double = 6 * 3600, capacity: Int = 21_600) {
        self.path = path
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        log = TrackLog(text: text, window: window, capacity: capacity)
        fileLines = text.split(separator: "\n").count
    }

    /// Records a fix. A failure is returned for the log when it is new, never thrown: the track must not stop
    /// the daemon.
    public func record(_ fix: Fix) -> SystemCallError? {
        guard let point = log.record(fix) else { return nil }
        do {
            if log.needsCompaction(fileLines: fileLines + 1) {
                appender?.close()
                appender = nil
                try AtomicFile.write(Data(log.text.utf8), to: path)
                fileLines = log.points.count
            } else {
                if appender == nil {
                    appender = try FileDescriptor.open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW, permissions: 0o600)
                }
                try appender?.writeAll(point.lineBytes + [UInt8(ascii: "\n")], path: path)
                fileLines += 1
            }
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
