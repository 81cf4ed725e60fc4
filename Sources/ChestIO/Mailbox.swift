import Glibc
import Synchronization

/// Events posted from any thread to the one thread that runs a loop, which sleeps in poll(2) until an event is
/// posted or, optionally, one more descriptor has something to read (docs/ARCHITECTURE.md "One loop").
///
/// The loop's thread is its own, never one of Swift's pool: it blocks in poll(2). Watching a descriptor here lets
/// the loop read it where it is woken, instead of another thread reading it and waking the loop for each line.
package final class Mailbox<Event: Sendable>: Sendable {
    @usableFromInline let posted = Mutex(Posted())
    /// A socket pair used as a pipe: a byte is written to `ring` when the first event lands in an empty mailbox,
    /// and `bell` is emptied by the loop as it takes them. (Glibc's module has neither eventfd nor pipe2, and a
    /// pair can be made close-on-exec at once, before another thread spawns a child.)
    @usableFromInline let bell: FileDescriptor
    private let ring: FileDescriptor

    /// - Throws: when the kernel refuses a socket pair (descriptors exhausted).
    package init() throws(SystemCallError) {
        var ends: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        guard socketpair(AF_UNIX, type, 0, &ends) == 0 else { throw SystemCallError("socketpair") }
        bell = FileDescriptor(rawValue: ends[0])
        ring = FileDescriptor(rawValue: ends[1])
    }

    deinit {
        bell.close()
        ring.close()
    }

    /// The events posted and not yet taken, and what those posted by `yield(_:weight:limit:)` weigh.
    @usableFromInline struct Posted {
        @usableFromInline var events: [Event] = []
        @usableFromInline var weight = 0
        @inlinable init() {}
    }

    /// Posts an event; the loop takes it after those posted before it. Never blocks for long.
    package func yield(_ event: Event) {
        let wasEmpty = posted.withLock { posted in
            posted.events.append(event)
            return posted.events.count == 1
        }
        ringIfFirst(wasEmpty)
    }

    /// Posts an event of `weight` (its bytes, say) unless the events posted this way and not yet taken would then
    /// weigh more than `limit`: a bounded queue for a producer that may outrun the loop, whose surplus is dropped
    /// rather than held (docs/HUNTS.md "A team that floods"). Whether it was posted. The loop takes a batch at a time,
    /// so what waits is at most `limit`, besides the batch the loop has in hand and what `yield(_:)` posted.
    package func yield(_ event: Event, weight: Int, limit: Int) -> Bool {
        let wasEmpty: Bool? = posted.withLock { posted in
            guard posted.weight + weight <= limit else { return nil }
            posted.weight += weight
            posted.events.append(event)
            return posted.events.count == 1
        }
        guard let wasEmpty else { return false }
        ringIfFirst(wasEmpty)
        return true
    }

    /// One ring per batch: events posted while the loop has not yet emptied the mailbox need none.
    private func ringIfFirst(_ wasEmpty: Bool) {
        guard wasEmpty else { return }
        var byte: UInt8 = 1
        _ = withUnsafeBytes(of: &byte) { try? ring.write($0) }
    }

    /// What woke the loop.
    package struct Wake {
        /// The events posted since the last wait, oldest first.
        package var events: [Event]
        /// Whether the watched descriptor has something to read (or room to write, when asked; or was hung up, or
        /// failed).
        package var readable: Bool

        @inlinable init(events: [Event], readable: Bool) {
            self.events = events
            self.readable = readable
        }
    }

    /// Sleeps until an event is posted or `descriptor` has something to read (or, with `orWritable`, room to write),
    /// or `timeout` seconds passed when one is given, and returns what woke it (nothing after a timeout). Call it from
    /// the loop's thread only.
    ///
    /// Inlinable, so that the loop's wait is compiled for its own `Event`: chestd waits once a gpsd line, and the
    /// generic version looked up its types' metadata and allocated its `pollfd` array on every wake-up
    /// (docs/BENCHMARKS.md "The fix path's CPU").
    @inlinable
    package func wait(
        orReadable descriptor: FileDescriptor? = nil, orWritable: Bool = false, timeout: Double? = nil
    ) -> Wake {
        // Two entries on the stack: poll(2) skips an entry whose descriptor is negative.
        var entries = (
            pollfd(fd: bell.rawValue, events: Int16(POLLIN), revents: 0),
            pollfd(fd: descriptor?.rawValue ?? -1, events: Int16(orWritable ? POLLIN | POLLOUT : POLLIN), revents: 0)
        )
        let milliseconds = timeout.map { Int32(min(max($0, 0) * 1000, Double(Int32.max)).rounded(.up)) } ?? -1
        while true {
            let ready = withUnsafeMutableBytes(of: &entries) { raw in
                poll(raw.baseAddress!.assumingMemoryBound(to: pollfd.self), 2, milliseconds)
            }
            if ready >= 0 { break }
            // EINTR: a signal handler ran; nothing else can fail with a valid set of descriptors.
            if errno != EINTR { break }
        }
        let readable = entries.1.revents != 0
        // The bell silent means nothing waits that a later wait would miss: the post that makes the mailbox
        // non-empty rings after adding its event, and the bell is emptied only just before the events are taken,
        // so an event left here now has its ring in the bell or on its way, and the next poll returns at once.
        guard entries.0.revents != 0 else { return Wake(events: [], readable: readable) }
        var bytes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        let size = MemoryLayout.size(ofValue: bytes)
        while withUnsafeMutableBytes(of: &bytes, { (try? bell.read(into: $0)) == size }) {}
        let events = posted.withLock { posted in
            var taken: [Event] = []
            swap(&taken, &posted.events)
            posted.weight = 0
            return taken
        }
        return Wake(events: events, readable: readable)
    }
}
