import ChestCore
import ChestIO
import ChestMQTT
import FoundationEssentials
import Glibc
import Synchronization

/// The organiser's connection to the hunt's broker, for the command line: libmosquitto's events, posted from its
/// thread to ChestIO's `Mailbox` and taken on the command's own thread (docs/ARCHITECTURE.md "The board's core").
/// With a rate, a team's message beyond it is counted on libmosquitto's thread and never posted (`post`).
final class OrganiserLink: Sendable {
    let client: any BrokerClient
    private let mailbox: Mailbox<MQTTEvent>
    /// Events taken from the mailbox and not yet handed out by `next`.
    private let taken = Mutex<[MQTTEvent]>([])
    /// The teams' rate, checked on libmosquitto's thread; its refusals wait for `takeRefused`.
    private let rate: RateGate?

    /// A clean session with a client ID of this process's own: what the board needs the broker keeps retained
    /// (receipts, statuses, releases), so several boards may run at once and none needs a session kept for it.
    /// With `rated`, each team's messages beyond `TeamRate` are refused before they are posted. `makeClient` is
    /// libmosquitto's client but in tests that drive the board's loop in process.
    init(
        hunt: HuntFile, purpose: String, rated: Bool = false, makeClient: BrokerClientMaker = mosquittoClient
    ) throws {
        guard let password = hunt.organiserPassword else {
            throw ChestError("the hunt file has no organiser password; use the file chest hunt create wrote")
        }
        let broker = hunt.broker
        var options = MQTTOptions(
            clientID: "chest-\(purpose)-\(hunt.id.short)-\(ProcessInfoID.pid)",
            host: broker.host, port: broker.port, tls: broker.tls, caFile: hunt.caFile,
            username: HuntFile.organiserUser, password: password)
        options.cleanSession = true
        do {
            mailbox = try Mailbox()
        } catch {
            throw ChestError("cannot wait for the broker: \(error)")
        }
        let mailbox = self.mailbox
        let rate = rated ? RateGate(hunt: hunt) : nil
        self.rate = rate
        do {
            client = try makeClient(options) { event in Self.post(event, to: mailbox, through: rate, at: Date()) }
        } catch {
            throw ChestError("cannot reach the broker \(hunt.broker): \(error)")
        }
    }

    /// The most a rated link's messages (their topics and payloads, and `messageOverhead` each) wait for the loop:
    /// 16 MiB, some 12,000 of a team's messages of about 1.3 KB, several seconds of the loop's checks on this
    /// project's 2-core machine (docs/BENCHMARKS.md "A city"). Beyond, a message is dropped and counted `queueFull`.
    static let queueLimit = 16 << 20
    /// What a message costs in the mailbox besides its bytes (the event, the array's slot, the strings' headers).
    static let messageOverhead = 128

    /// Posts what libmosquitto's thread heard, unless it is a team's message beyond its rate: that is only counted,
    /// so that a team that floods costs the board's loop a count, not a wake-up and a look a message (docs/HUNTS.md
    /// "A team that floods"). A message within its rate that finds the mailbox holding `queueLimit` is dropped and
    /// counted too, so however many teams send at once, what waits for the loop is bounded; not one the broker hands
    /// over on subscribing (retained), which is the board's only copy of what came before, and bounded by what the
    /// broker keeps. The rate's lock is the only thing this thread and the loop share besides the mailbox.
    static func post(_ event: MQTTEvent, to mailbox: Mailbox<MQTTEvent>, through rate: RateGate?, at now: Date) {
        guard let rate, case let .message(topic, payload, retained) = event, !retained else {
            mailbox.yield(event)
            return
        }
        guard rate.admits(topic: topic, retained: retained, at: now) else { return }
        let weight = topic.utf8.count + payload.count + messageOverhead
        if !mailbox.yield(event, weight: weight, limit: queueLimit) { rate.overflowed(at: now) }
    }

    /// The messages refused by the rate, or dropped as the mailbox was full, since the last call
    /// (`TeamRate.takeRefused`).
    func takeRefused() -> [TeamRate.Refused] { rate?.takeRefused() ?? [] }

    /// Every event that came, oldest first, waiting at most `seconds` for the first.
    func events(within seconds: Double) -> [MQTTEvent] {
        let held = taken.withLock { events in
            defer { events.removeAll() }
            return events
        }
        return held.isEmpty ? mailbox.wait(timeout: seconds).events : held
    }

    /// The next event, or nil when none came within `seconds`.
    func next(within seconds: Double) -> MQTTEvent? {
        var events = events(within: seconds)
        guard !events.isEmpty else { return nil }
        let first = events.removeFirst()
        taken.withLock { $0 = events }
        return first
    }

    /// Starts connecting and waits for the broker's answer; throws a sentence when it refuses or stays silent.
    func connect(within seconds: Double, broker: BrokerURL) throws {
        client.start()
        let deadline = MonotonicClock.now() + seconds
        while MonotonicClock.now() < deadline {
            switch next(within: deadline - MonotonicClock.now()) {
            case .connected: return
            case let .connectionRefused(why): throw ChestError("the broker \(broker) refused the organiser: \(why)")
            default: continue
            }
        }
        throw ChestError(
            "the broker \(broker) did not answer within \(Int(seconds)) s; is it running, and is the URL right?")
    }

    func stop() { client.stop() }
}

/// `TeamRate` under a lock of its own: libmosquitto's thread checks it, the loop takes its refusals.
final class RateGate: Sendable {
    private let rate: Mutex<TeamRate>

    init(hunt: HuntFile) { rate = Mutex(TeamRate(hunt: hunt)) }

    func admits(topic: String, retained: Bool, at now: Date) -> Bool {
        rate.withLock { $0.admits(topic: topic, retained: retained, at: now) }
    }

    func overflowed(at now: Date) { rate.withLock { $0.overflowed(at: now) } }

    func takeRefused() -> [TeamRate.Refused] { rate.withLock { $0.takeRefused() } }
}

/// This process's ID, for a client ID that two commands running at once do not share.
enum ProcessInfoID {
    static var pid: Int32 { getpid() }
}
