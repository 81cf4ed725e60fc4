@preconcurrency import Dispatch
import Glibc

/// Watches the chest directory with inotify and reports files that arrived whole.
///
/// A file counts as arrived on `IN_CLOSE_WRITE` (written in place) or `IN_MOVED_TO` (renamed in, as careful
/// writers and sync tools do), never on `IN_CREATE`, which fires before the content exists. An overflowed event
/// queue and a deleted or moved directory are reported so the owner can rescan.
package final class ChestWatcher: Sendable {
    package enum Event: Sendable, Equatable {
        /// These names arrived (one read's worth, in order).
        case arrived([String])
        /// These names were created. A regular file is not complete yet and must wait for `.arrived`; a symlink,
        /// FIFO or other special file never gets a close-after-write, so this is its only announcement.
        case created([String])
        /// The kernel dropped events: rescan the directory.
        case overflow
        /// The directory was deleted or moved away; the watch is gone.
        case directoryGone
    }

    private let source: any DispatchSourceRead
    private let fd: FileDescriptor

    /// What the chest directory is watched for.
    package static let inboxEvents = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE_SELF | IN_MOVE_SELF)
    /// Files closed after writing only: in `rejected/`, a refused file its writer finished after all.
    package static let writesFinished = UInt32(IN_CLOSE_WRITE)

    /// Starts watching `directory` for `events`. The corresponding C functions are `inotify_init1(2)` and
    /// `inotify_add_watch(2)`.
    package init(
        directory: String, events: UInt32 = inboxEvents,
        onEvent: @escaping @Sendable (Event) -> Void
    ) throws(SystemCallError) {
        let made = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard made >= 0 else { throw SystemCallError("inotify_init1") }
        let fd = FileDescriptor(rawValue: made)
        let mask = events | UInt32(IN_ONLYDIR)
        guard inotify_add_watch(fd.rawValue, directory, mask) >= 0 else {
            let error = SystemCallError("inotify_add_watch", path: directory)
            fd.close()
            throw error
        }
        self.fd = fd
        source = DispatchSource.makeReadSource(
            fileDescriptor: fd.rawValue, queue: DispatchQueue(label: "chest.inotify"))
        source.setEventHandler {
            // Read until the queue stays empty for a moment: a copy of thousands of files then arrives as a few
            // large batches, which the store makes durable with one sync each instead of one per file.
            var events: [Event] = []
            var buffer = [UInt8](repeating: 0, count: 256 * 1024)
            while true {
                let count = (try? fd.read(into: &buffer)) ?? -1
                if count > 0 {
                    events += InotifyParser.events(in: buffer[..<count])
                    // A long copy is handed over in large batches as it goes, so the daemon checks files while
                    // the copy still runs; reading on keeps the kernel's event queue from overflowing.
                    if events.count >= Self.batchEvents {
                        for event in InotifyParser.merged(events) { onEvent(event) }
                        events = []
                    }
                    continue
                }
                guard !events.isEmpty else { break }
                usleep(Self.settle)
                let more = (try? fd.read(into: &buffer)) ?? -1
                guard more > 0 else { break }
                events += InotifyParser.events(in: buffer[..<more])
            }
            for event in InotifyParser.merged(events) { onEvent(event) }
        }
        source.setCancelHandler { fd.close() }
        source.resume()
    }

    package func stop() { source.cancel() }

    /// Microseconds to wait for more events before handing a batch over.
    static let settle: UInt32 = 20_000
    /// Events (a created and an arrived name each, per copied file) after which a batch is handed over at once.
    static let batchEvents = 2_000
}

/// Turns the packed `struct inotify_event` records of one read into `ChestWatcher.Event`s. Pure.
package enum InotifyParser {
    /// Joins the arrived names and the created names between an overflow or a lost directory into one event of
    /// each kind, in the order each kind first appeared. A copy interleaves them (each file is created, then
    /// closed): joining only neighbours would hand the daemon one batch, and one sync, per file. Which of the two
    /// comes first does not matter: a created name counts only while it is a special file, which never arrives.
    package static func merged(_ events: [ChestWatcher.Event]) -> [ChestWatcher.Event] {
        var result: [ChestWatcher.Event] = []
        var arrived: [String] = []
        var created: [String] = []
        var arrivedFirst = true
        func flush() {
            let joined: [ChestWatcher.Event?] = [
                arrived.isEmpty ? nil : .arrived(arrived),
                created.isEmpty ? nil : .created(created),
            ]
            result += (arrivedFirst ? joined : joined.reversed()).compactMap { $0 }
            arrived = []
            created = []
        }
        for event in events {
            switch event {
            case let .arrived(names):
                if arrived.isEmpty && created.isEmpty { arrivedFirst = true }
                arrived += names
            case let .created(names):
                if arrived.isEmpty && created.isEmpty { arrivedFirst = false }
                created += names
            case .overflow, .directoryGone:
                flush()
                if result.last != event { result.append(event) }
            }
        }
        flush()
        return result
    }

    package static func events(in bytes: ArraySlice<UInt8>) -> [ChestWatcher.Event] {
        var events: [ChestWatcher.Event] = []
        var names: [String] = []
        var offset = bytes.startIndex
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= bytes.endIndex {
            let (mask, length) = bytes.withUnsafeBytes { raw -> (UInt32, Int) in
                let base = offset - bytes.startIndex
                return (
                    raw.loadUnaligned(fromByteOffset: base + 4, as: UInt32.self),
                    Int(raw.loadUnaligned(fromByteOffset: base + 12, as: UInt32.self))
                )
            }
            let nameBytes = bytes[(offset + header)..<min(bytes.endIndex, offset + header + length)]
            let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
            offset += header + length
            if mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0, !name.isEmpty {
                names.append(name)
                continue
            }
            if !names.isEmpty {
                events.append(.arrived(names))
                names = []
            }
            if mask & UInt32(IN_CREATE) != 0, !name.isEmpty {
                if case let .created(earlier) = events.last {
                    events[events.count - 1] = .created(earlier + [name])
                } else {
                    events.append(.created([name]))
                }
                continue
            }
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                events.append(.overflow)
            } else if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0, events.last != .directoryGone {
                events.append(.directoryGone)
            }
        }
        if !names.isEmpty { events.append(.arrived(names)) }
        return events
    }
}
