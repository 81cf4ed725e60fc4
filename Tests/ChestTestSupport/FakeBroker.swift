import ChestMQTT
import Foundation

/// A broker client that reaches no broker: it records what its loop subscribed and published, and tells the loop
/// what the test says the broker did, through the `onEvent` it was made with (as libmosquitto's thread would).
/// chestd's HuntLink and the board's loop take it in place of `MQTTClient` (docs/ARCHITECTURE.md "The daemon in
/// process").
package final class FakeBroker: BrokerClient, @unchecked Sendable {
    package let options: MQTTOptions
    private let onEvent: @Sendable (MQTTEvent) -> Void
    package private(set) var subscriptions: [String] = []
    /// What was published, by message ID, in order.
    package private(set) var published: [(mid: Int32, message: MQTTMessage)] = []
    package private(set) var acknowledged: Set<Int32> = []
    package private(set) var started = false
    package private(set) var stopped = false
    private var connected = false
    private var nextMID: Int32 = 1

    package init(_ options: MQTTOptions, onEvent: @escaping @Sendable (MQTTEvent) -> Void) {
        self.options = options
        self.onEvent = onEvent
    }

    package func start() { started = true }
    package func subscribe(_ pattern: String, qos: Int32) { subscriptions.append(pattern) }
    package func setWill(_ will: MQTTMessage) {}
    package func stop() { stopped = true }

    package func publish(_ message: MQTTMessage) throws(MQTTError) -> Int32 {
        guard connected else { throw MQTTError(code: 4, description: "the client is not connected") }
        defer { nextMID += 1 }
        published.append((nextMID, message))
        return nextMID
    }

    /// The broker accepts the connection.
    package func connect() {
        connected = true
        onEvent(.connected)
    }

    /// The connection is lost, for `why`; publishing fails until `connect`.
    package func disconnect(_ why: String) {
        connected = false
        onEvent(.disconnected(why))
    }

    /// The broker hands over a message on `topic` (`retained`: on subscribing).
    package func deliver(topic: String, payload: Data, retained: Bool = false) {
        onEvent(.message(topic: topic, payload: payload, retained: retained))
    }

    /// The broker acknowledges everything published and not yet acknowledged, in order.
    package func acknowledgeAll() {
        for (mid, _) in published where !acknowledged.contains(mid) {
            acknowledged.insert(mid)
            onEvent(.delivered(mid))
        }
    }
}
