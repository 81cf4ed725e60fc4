import struct FoundationEssentials.Data

/// What the client reports, on its own thread, in the order it happened.
package enum MQTTEvent: Sendable, Hashable {
    /// The broker accepted the connection (CONNACK 0); the remembered subscriptions have already been re-sent.
    case connected
    /// The broker answered CONNACK with a refusal, such as a bad user name or password, in a sentence. The client
    /// keeps retrying with backoff, since an organiser may fix the broker's password file during a hunt.
    case connectionRefused(String)
    /// The connection was lost, or an attempt to connect failed (reported once per reason until the next
    /// `connected`). The client reconnects by itself, 1 s after the first failure and then backing off to 30 s.
    case disconnected(String)
    /// The broker acknowledged a publish (PUBACK for QoS 1; written to the socket for QoS 0): the message ID
    /// `publish` returned.
    case delivered(Int32)
    /// A message on a subscribed topic; `retained` when the broker kept it from before this subscription.
    case message(topic: String, payload: Data, retained: Bool)
}
