/// What a hunt's links need of an MQTT client: libmosquitto's `MQTTClient` in chestd and `chest board`, a fake
/// broker in the tests that drive their loops in process (docs/ARCHITECTURE.md "The daemon in process"). The client
/// reports what happens through the `onEvent` it was made with, which posts to the loop's mailbox.
package protocol BrokerClient: AnyObject, Sendable {
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

extension BrokerClient {
    package func subscribe(_ pattern: String) { subscribe(pattern, qos: 1) }
}

extension MQTTClient: BrokerClient {}

/// Makes a broker client for these options, reporting through `onEvent`.
package typealias BrokerClientMaker = (MQTTOptions, _ onEvent: @escaping @Sendable (MQTTEvent) -> Void) throws ->
    any BrokerClient

/// libmosquitto's client, as a `BrokerClientMaker`.
package func mosquittoClient(_ options: MQTTOptions, onEvent: @escaping @Sendable (MQTTEvent) -> Void) throws
    -> any BrokerClient
{
    try MQTTClient(options, onEvent: onEvent)
}
