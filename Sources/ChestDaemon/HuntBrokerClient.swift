import ChestMQTT

/// What `HuntLink` needs of an MQTT client: libmosquitto's `MQTTClient` in chestd, a fake broker in
/// ChestDaemonTests (docs/ARCHITECTURE.md "The daemon in process"). The client reports what happens through the
/// `onEvent` it was made with, which posts to the loop's mailbox.
protocol HuntBrokerClient: AnyObject {
    /// Starts connecting in the background; returns at once.
    func start()
    /// Subscribes to `pattern` now when connected, and again on every connection.
    func subscribe(_ pattern: String, qos: Int32)
    /// Publishes `message` and returns the ID that `MQTTEvent.delivered` reports once the broker acknowledged it;
    /// throws while not connected.
    func publish(_ message: MQTTMessage) throws(MQTTError) -> Int32
    /// The last will from the next connection on.
    func setWill(_ will: MQTTMessage)
    /// Disconnects cleanly; no event is reported after it returns.
    func stop()
}

extension HuntBrokerClient {
    func subscribe(_ pattern: String) { subscribe(pattern, qos: 1) }
}

extension MQTTClient: HuntBrokerClient {}

/// Makes a broker client for these options, reporting through `onEvent`.
typealias HuntBrokerClientMaker = (MQTTOptions, _ onEvent: @escaping @Sendable (MQTTEvent) -> Void) throws ->
    any HuntBrokerClient

extension HuntLink {
    /// libmosquitto's client: chestd's.
    static func mqttClient(_ options: MQTTOptions, onEvent: @escaping @Sendable (MQTTEvent) -> Void) throws
        -> any HuntBrokerClient
    {
        try MQTTClient(options, onEvent: onEvent)
    }
}
