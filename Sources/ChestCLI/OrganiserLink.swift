import ChestCore
import ChestIO
import ChestMQTT
import Dispatch
import Glibc
import Synchronization

/// The organiser's connection to the hunt's broker, for the command line: libmosquitto's events, waited for one
/// at a time on the command's own thread.
final class OrganiserLink: Sendable {
    private final class Events: Sendable {
        let queue = Mutex<[MQTTEvent]>([])
        let ready = DispatchSemaphore(value: 0)
    }

    let client: MQTTClient
    private let events = Events()

    /// A clean session with a client ID of this process's own: what the board needs the broker keeps retained
    /// (receipts, statuses, releases), so several boards may run at once and none needs a session kept for it.
    init(hunt: HuntFile, purpose: String) throws {
        guard let password = hunt.organiserPassword else {
            throw ChestError("the hunt file has no organiser password; use the file chest hunt create wrote")
        }
        let broker = hunt.brokerURL
        var options = MQTTOptions(clientID: "chest-\(purpose)-\(hunt.id.prefix(8))-\(ProcessInfoID.pid)",
                                  host: broker.host, port: broker.port, tls: broker.tls, caFile: hunt.caFile,
                                  username: HuntFile.organiserUser, password: password)
        options.cleanSession = true
        let events = self.events
        do {
            client = try MQTTClient(options) { event in
                events.queue.withLock { $0.append(event) }
                events.ready.signal()
            }
        } catch {
            throw ChestError("cannot reach the broker \(hunt.broker): \(error)")
        }
    }

    /// The next event, or nil when none came within `seconds`.
    func next(within seconds: Double) -> MQTTEvent? {
        guard events.ready.wait(timeout: .now() + max(seconds, 0)) == .success else { return nil }
        return events.queue.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }

    /// Starts connecting and waits for the broker's answer; throws a sentence when it refuses or stays silent.
    func connect(within seconds: Double, broker: String) throws {
        client.start()
        let deadline = MonotonicClock.now() + seconds
        while MonotonicClock.now() < deadline {
            switch next(within: deadline - MonotonicClock.now()) {
            case .connected: return
            case let .connectionRefused(why): throw ChestError("the broker \(broker) refused the organiser: \(why)")
            default: continue
            }
        }
        throw ChestError("the broker \(broker) did not answer within \(Int(seconds)) s; is it running, and is the URL right?")
    }

    func stop() { client.stop() }
}

/// This process's ID, for a client ID that two commands running at once do not share.
enum ProcessInfoID {
    static var pid: Int32 { getpid() }
}
