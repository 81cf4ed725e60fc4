import ChestCore
import ChestIO
import ChestMQTT
import ChestWeb
import FoundationEssentials

/// Where the board hands its snapshots: the web board's server (`BoardServer`), or a test's recorder.
protocol BoardPublisher: AnyObject {
    func publish(_ snapshot: BoardSnapshot, events: [BoardEvent])
}

extension BoardServer: BoardPublisher {}

/// `chest board`'s loop, shaped as chestd's (docs/ARCHITECTURE.md "The board's core"): it owns the feed (the core and
/// its journal), the link to the broker, the hint answers and the start key it owes the broker, and the decision to
/// hand the browsers a new snapshot (`BoardPublication`); `BoardCommand` parses and chooses the view. Its adapters
/// (the broker's client, the web board, the clock) are the real ones in `chest board` and a fake broker, a recorder
/// and a `ManualClock` in BoardLoopTests.
struct BoardLoop {
    struct Adapters {
        var link: OrganiserLink
        var web: (any BoardPublisher)?
        var clock: any LoopClock
    }

    private(set) var feed: BoardFeed
    private(set) var connection = BrokerState.connecting
    private let adapters: Adapters
    private var publication: BoardPublication
    private let tiles: BoardTiles?
    private let columns: [BoardColumn]?

    init(feed: BoardFeed, adapters: Adapters, tiles: BoardTiles? = nil, columns: [BoardColumn]? = nil) {
        self.feed = feed
        self.adapters = adapters
        self.tiles = tiles
        self.columns = columns
        publication = BoardPublication(teams: feed.hunt.teams.count)
    }

    /// The board as it is now, for the page in a browser.
    func snapshot(connection: BrokerState? = nil) -> BoardSnapshot {
        feed.snapshot(connection: connection ?? self.connection, tiles: tiles, columns: columns)
    }

    /// Subscribes to the hunt's topics and starts connecting; shows the browsers the board as the journal left it.
    mutating func start() {
        // QoS 0: the broker then sends the board each message as it comes, not 20 at a time with each one's
        // acknowledgement awaited, so a team that floods cannot keep receipts queued behind its own in those 20 slots.
        // QoS 1 would give the board nothing more: its session is clean, so the broker forgets what it owed the
        // board when the connection drops, and everything the board reads is retained, sent again on the next
        // subscription; what the broker cannot queue it drops at either QoS (docs/HUNTS.md "A team that floods").
        adapters.link.client.subscribe(HuntTopic.all(hunt: feed.hunt.id), qos: 0)
        adapters.link.client.start()
        publish([])
    }

    /// One turn: what the broker said within `longest` seconds (less when a delayed hint falls due sooner), the
    /// refusals counted unread, the start key and the delayed hints that fell due, the answers handed to the broker,
    /// the browsers shown the board when it changed. Returns the turn's events.
    mutating func step(waitingAtMost longest: Double = 0.2) -> [BoardEvent] {
        var events: [BoardEvent] = []
        let link = adapters.link
        for event in link.events(within: feed.wait(at: adapters.clock.now().wall, longest: longest)) {
            switch event {
            case let .message(topic, payload, retained):
                events += feed.receive(
                    topic: topic, payload: payload, retained: retained, at: adapters.clock.now().wall)
            case .connected: connection = .connected
            case let .connectionRefused(why): connection = .refused(why)
            case let .disconnected(why): connection = .reconnecting(why)
            case .delivered: break
            }
        }
        events += feed.refuse(link.takeRefused())
        let now = adapters.clock.now()
        feed.queueStart(at: now.wall)
        events += feed.tick(at: now.wall)
        sendOutgoing()
        publish(events, at: now.monotonic)
        return events
    }

    /// Gathers what the broker holds (its retained and queued messages, until a quiet second or `timeout`), for
    /// --once and --results: a note for the reader when they were still coming or the broker could not be reached,
    /// and why not.
    mutating func gather(timeout: Double) -> (note: String, unreachable: (any Error)?) {
        let link = adapters.link
        var note = ""
        var unreachable: (any Error)?
        do {
            try link.connect(within: timeout, broker: feed.hunt.broker)
            let deadline = MonotonicClock.now() + timeout
            var quiet = false
            while !quiet, MonotonicClock.now() < deadline {
                guard let event = link.next(within: 1) else {
                    quiet = true
                    break
                }
                if case let .message(topic, payload, retained) = event {
                    _ = feed.receive(topic: topic, payload: payload, retained: retained, at: adapters.clock.now().wall)
                }
            }
            _ = feed.refuse(link.takeRefused())
            connection = .connected
            if !quiet {
                note = "\n(messages were still arriving after \(Int(timeout)) s; a longer --timeout shows them all)"
            }
        } catch {
            note = "\n(what the board received before)"
            unreachable = error
            connection = .unreachable
        }
        return (note, unreachable)
    }

    /// Writes what the journal still owes and leaves the broker.
    mutating func finish() {
        feed.stop(at: adapters.clock.now().wall)
        adapters.link.stop()
    }

    /// Publishes the hint answers and the start key the board owes; those the broker cannot take now wait for the
    /// next turn.
    private mutating func sendOutgoing() {
        var unsent: [MQTTMessage] = []
        for message in feed.takeOutgoing() {
            do {
                _ = try adapters.link.client.publish(message)
            } catch {
                unsent.append(message)
            }
        }
        feed.requeue(unsent)
    }

    /// Hands the browsers the board as it is now, when it changed.
    private mutating func publish(_ events: [BoardEvent], at instant: Double? = nil) {
        guard let web = adapters.web else { return }
        let shown = BoardPublication.Shown(
            connection: connection, word: feed.core.words.last?.said.id, schedule: feed.core.schedule,
            ignored: feed.gate.refused)
        guard
            let sent = publication.take(
                events, showing: shown, at: instant ?? adapters.clock.now().monotonic)
        else { return }
        web.publish(snapshot(), events: sent)
    }
}
