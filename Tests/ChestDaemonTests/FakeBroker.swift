import ChestMQTT
import Foundation

@testable import ChestDaemon

/// A broker client that reaches no broker: it records what the link subscribed and published, and tells the loop
/// what the test says the broker did, through the `onEvent` the link gave it (as libmosquitto's thread would).
final class FakeBroker: HuntBrokerClient, @unchecked Sendable {
    let options: MQTTOptions
    private let onEvent: @Sendable (MQTTEvent) -> Void
    private(set) var subscriptions: [String] = []
    /// What was published, by message ID, in order.
    private(set) var published: [(mid: Int32, message: MQTTMessage)] = []
    private(set) var acknowledged: Set<Int32> = []
    private(set) var started = false
    private(set) var stopped = false
    private var connected = false
    private var nextMID: Int32 = 1

    init(_ options: MQTTOptions, onEvent: @escaping @Sendable (MQTTEvent) -> Void) {
        self.options = options
        self.onEvent = onEvent
    }

    func start() { started = true }
    func subscribe(_ pattern: String, qos: Int32) { subscriptions.append(pattern) }
    func setWill(_ will: MQTTMessage) {}
    func stop() { stopped = true }

    func publish(_ message: MQTTMessage) throws(MQTTError) -> Int32 {
        guard connected else { throw MQTTError(code: 4, description: "the client is not connected") }
        defer { nextMID += 1 }
        published.append((nextMID, message))
        return nextMID
    }

    /// The broker accepts the connection.
    func connect() {
        connected = true
        onEvent(.connected)
    }

    /// The broker acknowledges everything published and not yet acknowledged, in order.
    func acknowledgeAll() {
        for (mid, _) in published where !acknowledged.contains(mid) {
            acknowledged.insert(mid)
            onEvent(.delivered(mid))
        }
    }
}
