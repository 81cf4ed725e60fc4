import ChestCore
import Dispatch
import Foundation
import Synchronization

/// `chest board --http`: serves the page, its assets, `/board.json` and `/events` from the snapshots the board's loop
/// publishes (docs/HUNTS.md "The board in a browser"). The loop owns the board's state; `publish` hands the server an
/// immutable copy under a lock and wakes the event streams; the server's threads (libmicrohttpd's) only read it.
/// Read-only: no request changes anything.
public final class BoardServer: Sendable {
    private let state: BoardServerState
    private let http: HTTPServer
    /// Where it listens, with the port it got.
    public let address: HTTPAddress

    /// Listens on `address` and serves `snapshot` until the next `publish`; throws a sentence when it cannot listen.
    public init(address: HTTPAddress, access: BoardAccess, snapshot: BoardSnapshot, timeZone: TimeZone = .current) throws {
        let state = BoardServerState(access: access, snapshot: snapshot, timeZone: timeZone)
        self.state = state
        http = try HTTPServer(address: address) { request in state.respond(to: request) }
        self.address = address.with(port: http.port)
    }

    /// The address a browser opens.
    public var url: String { "http://\(address)/" }

    /// Takes the board's state as it is now, with the events that changed it, and wakes every event stream.
    public func publish(_ snapshot: BoardSnapshot, events: [BoardEvent]) {
        state.publish(snapshot, events: events)
    }

    /// Ends every event stream, then the server.
    public func stop() {
        state.stop()
        http.stop()
    }
}

/// What the server's threads share with the board's loop: the latest snapshot, its rendering (made once per
/// snapshot, by whichever thread needs it first), and the event streams waiting for the next one.
final class BoardServerState: Sendable {
    private struct Published {
        var version = 0
        var snapshot: BoardSnapshot
        /// The latest board events, numbered: a stream sends those after the last it sent.
        var events: [EventStream.Numbered] = []
        var lastNumber = 0
    }

    private struct Rendered {
        var version: Int
        var sections: [String: String]
    }

    private struct Streams {
        var waiting: [ObjectIdentifier: DispatchSemaphore] = [:]
        var stopping = false
    }

    let access: BoardAccess
    let timeZone: TimeZone
    private let published: Mutex<Published>
    private let rendered = Mutex<Rendered?>(nil)
    private let streams = Mutex(Streams())
    /// Events kept for streams that are behind: more than a burst between two wake-ups of a stream.
    static let eventLimit = 1_000

    init(access: BoardAccess, snapshot: BoardSnapshot, timeZone: TimeZone) {
        self.access = access
        self.timeZone = timeZone
        published = Mutex(Published(snapshot: snapshot))
    }

    func publish(_ snapshot: BoardSnapshot, events: [BoardEvent]) {
        published.withLock { state in
            state.version += 1
            state.snapshot = snapshot
            for event in events {
                state.lastNumber += 1
                state.events.append(EventStream.Numbered(number: state.lastNumber, event: event))
            }
            if state.events.count > Self.eventLimit { state.events.removeFirst(state.events.count - Self.eventLimit) }
        }
        streams.withLock { for semaphore in $0.waiting.values { semaphore.signal() } }
    }

    func stop() {
        streams.withLock { streams in
            streams.stopping = true
            for semaphore in streams.waiting.values { semaphore.signal() }
        }
    }

    /// The current version, the page's parts rendered for it, and the latest events.
    func current() -> (version: Int, sections: [String: String], events: [EventStream.Numbered], title: String) {
        let (version, snapshot, events) = published.withLock { ($0.version, $0.snapshot, $0.events) }
        // One thread renders a version; the others wait for it rather than render it again.
        let sections = rendered.withLock { cache -> [String: String] in
            if let cache, cache.version >= version { return cache.sections }
            let sections = BoardPage.sections(snapshot, timeZone: timeZone)
            cache = Rendered(version: version, sections: sections)
            return sections
        }
        return (version, sections, events, snapshot.huntName)
    }

    var lastNumber: Int { published.withLock { $0.lastNumber } }
    var snapshot: BoardSnapshot { published.withLock { $0.snapshot } }

    /// Registers a stream to be woken by each publication; false once the server is stopping.
    func wake(_ id: ObjectIdentifier, with semaphore: DispatchSemaphore) -> Bool {
        streams.withLock { streams in
            guard !streams.stopping else { return false }
            streams.waiting[id] = semaphore
            return true
        }
    }

    func forget(_ id: ObjectIdentifier) { _ = streams.withLock { $0.waiting.removeValue(forKey: id) } }
    var isStopping: Bool { streams.withLock { $0.stopping } }
}

/// One browser's `/events`: blocks its connection's thread until the board publishes, then sends what changed.
final class BoardEventSource: HTTPStreamSource {
    private let state: BoardServerState
    private let semaphore = DispatchSemaphore(value: 0)
    private let stream: Mutex<(stream: EventStream, version: Int)>
    /// How long a quiet stream waits before a keep-alive comment.
    static let keepAlive = 15.0

    init(state: BoardServerState) {
        self.state = state
        stream = Mutex((EventStream(after: state.lastNumber), -1))
    }

    func read() -> Data? {
        guard state.wake(ObjectIdentifier(self), with: semaphore) else { return nil }
        while !state.isStopping {
            let now = state.current()
            let data = stream.withLock { entry -> Data in
                guard entry.version != now.version else { return Data() }
                entry.version = now.version
                return entry.stream.next(sections: now.sections, events: now.events)
            }
            if !data.isEmpty { return data }
            if semaphore.wait(timeout: .now() + Self.keepAlive) == .timedOut { return EventStream.keepAlive }
        }
        return nil
    }

    func closed() { state.forget(ObjectIdentifier(self)) }
}
