import CMicroHTTPD
import ChestCore
import ChestIO
import Dispatch
import FoundationEssentials
import Synchronization

/// `chest board --http`: serves the page, its assets, `/board.json` and `/events` from the snapshots the board's loop
/// publishes (docs/HUNTS.md "The board in a browser"). The loop owns the board's state; `publish` hands the server an
/// immutable copy under a lock and wakes the event streams; the server's threads (libmicrohttpd's) only read it.
/// Read-only: no request changes anything.
package final class BoardServer: Sendable {
    private let state: BoardServerState
    private let http: HTTPServer
    /// Wakes the event streams every `BoardEventSource.keepAlive` seconds, so that a quiet one sends a keep-alive.
    private nonisolated(unsafe) let keepAlive: DispatchSourceTimer  // set once; Dispatch sources are thread-safe
    /// Renders the page's parts for each published state, in order; a state already rendered costs nothing.
    private let render = DispatchQueue(label: "chest.board.render")
    /// Where it listens, with the port it got.
    package let address: HTTPAddress

    /// Listens on `address` and serves `snapshot` until the next `publish`; throws a sentence when it cannot listen.
    package init(address: HTTPAddress, access: BoardAccess, snapshot: BoardSnapshot, timeZone: Zone = .current) throws {
        // Its renderings are megabytes at 5,000 teams: mapped on their own, and given back when freed (shim.h).
        chest_map_large_allocations()
        let state = BoardServerState(access: access, snapshot: snapshot, timeZone: timeZone)
        self.state = state
        let http = try HTTPServer(address: address) { request in state.respond(to: request) }
        self.http = http
        self.address = address.with(port: http.port)
        keepAlive = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "chest.board.keep-alive"))
        keepAlive.schedule(deadline: .now() + BoardEventSource.keepAlive, repeating: BoardEventSource.keepAlive)
        keepAlive.setEventHandler { http.wakeStreams() }
        keepAlive.resume()
    }

    /// The address a browser opens.
    package var url: String { "http://\(address)/" }

    /// Takes the board's state as it is now, with the events that changed it, and wakes every event stream once the
    /// page's parts are rendered for it. They are rendered here, on a queue of their own, not by a stream on one of
    /// the server's two threads: at 5,000 teams that is a tenth of a second or more, during which every request that
    /// thread holds (an honest `/board.json`) would wait (docs/BENCHMARKS.md "A city").
    package func publish(_ snapshot: BoardSnapshot, events: [BoardEvent]) {
        state.publish(snapshot, events: events)
        render.async { [state, http] in
            _ = state.current()
            http.wakeStreams()
        }
    }

    /// Ends every event stream, then the server.
    package func stop() {
        keepAlive.cancel()
        state.stop()
        http.stop()
    }
}

/// What the server's threads share with the board's loop: the latest snapshot, what is rendered from it (made once
/// per snapshot, by whichever thread needs it first: the page's parts, the page, each page of `/board.json`, the
/// results), and the event streams waiting for the next one. A request never renders what an earlier one rendered
/// for the same snapshot (docs/BENCHMARKS.md "A city").
final class BoardServerState: Sendable {
    private struct Published {
        var version = 0
        var snapshot: BoardSnapshot
        /// The latest board events, numbered: a stream sends those after the last it sent.
        var events: [EventStream.Numbered] = []
        var lastNumber = 0
    }

    let access: BoardAccess
    let timeZone: Zone
    /// Begins every `ETag`, so that a board started again, its versions counted from 1 again, never repeats one.
    private let epoch = String(UInt64.random(in: 0...UInt64.max), radix: 36)
    private let published: Mutex<Published>
    private let sections = RenderCache<[String: String]>()
    private let document = RenderCache<Data>()
    private let json = RenderCache<[Int: Data]>()
    private let results = RenderCache<Data>()
    /// The teams' colours and lookalikes, made again only when the teams or their chosen colours change.
    private let looks = Mutex<TeamLooks?>(nil)
    /// Renderings made so far, of any kind (for the tests).
    let renders = Atomic<Int>(0)
    private let stopping = Mutex(false)
    /// Events kept for streams that are behind: more than a burst between two wake-ups of a stream.
    static let eventLimit = 1_000

    init(access: BoardAccess, snapshot: BoardSnapshot, timeZone: Zone) {
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
    }

    func stop() { stopping.withLock { $0 = true } }

    /// The page's parts as last rendered (rendered now only when none are), and the latest events: what a stream
    /// sends. `BoardServer.publish` renders each new state and then wakes the streams.
    func rendered() -> (version: Int, sections: [String: String], events: [EventStream.Numbered]) {
        if let (version, sections) = sections.latest {
            return (version, sections, published.withLock { $0.events })
        }
        let now = current()
        return (now.version, now.sections, now.events)
    }

    /// The current version, the page's parts rendered for it, and the latest events.
    func current() -> (version: Int, sections: [String: String], events: [EventStream.Numbered], title: String) {
        let (version, snapshot, events) = published.withLock { ($0.version, $0.snapshot, $0.events) }
        let sections = sections.value(version: version) {
            renders.add(1, ordering: .relaxed)
            return BoardPage.sections(snapshot, timeZone: timeZone, looks: teamLooks(snapshot))
        }
        return (version, sections, events, snapshot.huntName)
    }

    /// The page at `/` as it is now.
    func page() -> Data {
        let now = current()
        return document.value(version: now.version) {
            renders.add(1, ordering: .relaxed)
            return Data(BoardPage.document(huntName: now.title, sections: now.sections, tiles: snapshot.tiles).utf8)
        }
    }

    /// Page `number` of `/board.json` as it is now, with its `ETag`: the state it was read from, which a page
    /// without its event stream compares to know the board changed (docs/HUNTS.md "Slow and idle connections");
    /// nil when there is no such page.
    func json(page number: Int) -> (data: Data, tag: String)? {
        let (version, snapshot) = published.withLock { ($0.version, $0.snapshot) }
        // Checked before the cache, which keeps only pages that exist.
        guard (1...BoardJSON.pages(teams: snapshot.board.teamNames.count)).contains(number) else { return nil }
        let pages = json.value(
            version: version,
            update: { pages in
                guard pages[number] == nil else { return }
                renders.add(1, ordering: .relaxed)
                pages[number] = BoardJSON.page(snapshot, number: number, looks: teamLooks(snapshot))
            }, initial: [:])
        return pages[number].map { ($0, "\"\(epoch)-\(version)\"") }
    }

    /// `/results` as it is now; with `reveal`, its last `reveal` places only (the ceremony's, made each time).
    func resultsPage(reveal: Int? = nil, photos: Bool = false) -> Data {
        let (version, snapshot) = published.withLock { ($0.version, $0.snapshot) }
        if reveal != nil || photos {
            renders.add(1, ordering: .relaxed)
            return Data(
                BoardResults(snapshot).html(
                    timeZone: timeZone, served: true, reveal: reveal, tiles: snapshot.tiles, photos: photos
                ).utf8)
        }
        return results.value(version: version) {
            renders.add(1, ordering: .relaxed)
            return Data(BoardResults(snapshot).html(timeZone: timeZone, served: true, tiles: snapshot.tiles).utf8)
        }
    }

    private func teamLooks(_ snapshot: BoardSnapshot) -> TeamLooks {
        looks.withLock { looks in
            if let looks, looks.fits(snapshot) { return looks }
            let made = TeamLooks(snapshot)
            looks = made
            return made
        }
    }

    var lastNumber: Int { published.withLock { $0.lastNumber } }
    var snapshot: BoardSnapshot { published.withLock { $0.snapshot } }

    var isStopping: Bool { stopping.withLock { $0 } }
}

/// What was rendered for the newest version asked for: a request for that version, or an older one, takes it; one for
/// a newer version renders it, under the lock, so that requests arriving together wait for one rendering.
final class RenderCache<Value: Sendable>: Sendable {
    private let entry = Mutex<(version: Int, value: Value)?>(nil)
    /// The same, under a lock of its own that is never held while rendering.
    private let done = Mutex<(version: Int, value: Value)?>(nil)
    /// The latest rendering, whatever its version, without waiting for one being made.
    var latest: (version: Int, value: Value)? { done.withLock { $0 } }

    func value(version: Int, render: () -> Value) -> Value {
        entry.withLock { entry in
            if let entry, entry.version >= version { return entry.value }
            let value = render()
            entry = (version, value)
            done.withLock { $0 = (version, value) }
            return value
        }
    }

    /// For a value made of parts (the pages of `/board.json`): `update` adds what is missing to the value of
    /// `version`, which starts as `initial` when the cached one is older.
    func value(version: Int, update: (inout Value) -> Void, initial: Value) -> Value {
        entry.withLock { entry in
            var current: (version: Int, value: Value) =
                entry.flatMap { $0.version >= version ? $0 : nil } ?? (version, initial)
            update(&current.value)
            entry = current
            return current.value
        }
    }
}

/// One browser's `/events`: asked by the server whenever the board publishes (and every `keepAlive` seconds),
/// it sends what changed, a keep-alive when it has been quiet that long, or nothing.
final class BoardEventSource: HTTPStreamSource {
    private let state: BoardServerState
    private let stream: Mutex<(stream: EventStream, version: Int, lastSent: ContinuousClock.Instant)>
    /// How long a quiet stream waits before a keep-alive comment.
    static let keepAlive = 15.0

    init(state: BoardServerState) {
        self.state = state
        stream = Mutex((EventStream(after: state.lastNumber), -1, .now))
    }

    func next() -> Data? {
        guard !state.isStopping else { return nil }
        let now = state.rendered()
        return stream.withLock { entry -> Data in
            if entry.version != now.version {
                entry.version = now.version
                let data = entry.stream.next(sections: now.sections, events: now.events)
                if !data.isEmpty {
                    entry.lastSent = .now
                    return data
                }
            }
            // Woken a little early by the timer still counts: the timer and the stream do not start together.
            guard ContinuousClock.now - entry.lastSent >= .seconds(Self.keepAlive - 1) else { return Data() }
            entry.lastSent = .now
            return EventStream.keepAlive
        }
    }

    func closed() {}
}
