import struct FoundationEssentials.Data

/// How to reach the broker and who to be there.
package struct MQTTOptions: Sendable, Hashable {
    /// Stable per device, so that the broker keeps the session (subscriptions, queued QoS 1 messages) while the
    /// device is away.
    package var clientID: String
    package var host: String
    package var port: Int
    /// mqtts: TLS, checking the broker's certificate and host name against `caFile`, or the system's CAs in
    /// /etc/ssl/certs when it is nil.
    package var tls: Bool
    /// A PEM file of the CA certificates to trust instead of the system's.
    package var caFile: String?
    package var username: String?
    package var password: String?
    /// Seconds between PINGREQs when nothing else is sent; the broker declares the client gone (and publishes the
    /// will) after one and a half times this without a packet.
    package var keepAlive: Int = 30
    /// false keeps the broker's session across connections: subscriptions and the QoS 1 messages that arrive
    /// while the client is away.
    package var cleanSession: Bool = false
    /// The last will: published by the broker when the connection ends without a DISCONNECT.
    package var will: MQTTMessage?

    package init(
        clientID: String, host: String, port: Int, tls: Bool = false, caFile: String? = nil,
        username: String? = nil, password: String? = nil, will: MQTTMessage? = nil
    ) {
        self.clientID = clientID
        self.host = host
        self.port = port
        self.tls = tls
        self.caFile = caFile
        self.username = username
        self.password = password
        self.will = will
    }
}

/// One application message: what is published, and what a will is made of.
package struct MQTTMessage: Sendable, Hashable {
    package var topic: String
    package var payload: Data
    /// 0 (at most once) or 1 (at least once); 2 works but nothing in chest needs it.
    package var qos: Int32
    /// Whether the broker keeps it as the topic's last value for later subscribers.
    package var retain: Bool

    package init(topic: String, payload: Data, qos: Int32 = 1, retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }
}
