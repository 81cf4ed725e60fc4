import CMosquitto
import FoundationEssentials
import Glibc
import Synchronization

/// An MQTT 3.1.1 client over libmosquitto that keeps itself connected: it connects in the background, reconnects
/// with backoff after every loss, re-sends its subscriptions on every connection and reports what happens as
/// `MQTTEvent`s.
///
/// Thread-safe. The network runs on one thread of the client's own, which also calls `onEvent`, in order; keep the
/// handler short (hand the event to a queue or a stream). `publish`, `subscribe` and `stop` may be called from the
/// handler. docs/HUNTS.md "libmosquitto notes" explains what the client relies on.
package final class MQTTClient: @unchecked Sendable {
    private let connection: MQTTConnection

    /// Makes the client without connecting: checks the options (TLS files, will topic) with libmosquitto.
    package init(_ options: MQTTOptions, onEvent: @escaping @Sendable (MQTTEvent) -> Void) throws(MQTTError) {
        connection = try MQTTConnection(options, onEvent: onEvent)
    }

    /// Starts connecting on the client's thread; returns at once. The client retries for as long as it runs; a
    /// second call does nothing.
    package func start() { connection.start() }

    /// Subscribes to `pattern` (MQTT wildcards `+` and `#`) now when connected, and again on every connection.
    package func subscribe(_ pattern: String, qos: Int32 = 1) { connection.subscribe(pattern, qos: qos) }

    /// Publishes `message` and returns its message ID, which `MQTTEvent.delivered` reports when the broker has
    /// acknowledged it. `delivered` never comes before this returns.
    ///
    /// Throws `isNotConnected` while the client is not connected: keep the message (an outbox) and publish it
    /// again after `connected`. A QoS 1 message that was accepted here but not yet acknowledged when the
    /// connection dropped is sent again by libmosquitto on reconnection, so a receiver must recognise duplicates.
    @discardableResult
    package func publish(_ message: MQTTMessage) throws(MQTTError) -> Int32 { try connection.publish(message) }

    /// Replaces the last will from the next connection on (the current one keeps the will it connected with).
    package func setWill(_ will: MQTTMessage) { connection.setWill(will) }

    /// Whether the broker accepted the current connection and it has not been lost since.
    package var isConnected: Bool { connection.isConnected }

    /// Disconnects cleanly (a DISCONNECT, so the broker does not publish the will), ends the client's thread and
    /// frees libmosquitto's state. No event is reported after it returns. Idempotent.
    package func stop() { connection.stop() }

    /// Closes the TCP connection without a DISCONNECT, as a dead network or a killed process would: the broker
    /// publishes the will, and the client reconnects by itself. For tests.
    func dropConnection() { connection.dropConnection() }

    deinit { connection.stop() }
}
