import ChestTestSupport
import Foundation

@testable import ChestMQTT

/// An `MQTTClient` of a test and what it reported.
struct MQTTPeer {
    let client: MQTTClient
    let events: EventRecorder<MQTTEvent>

    /// A started client of `broker` (TLS with the broker's CA when it has one).
    init(
        _ broker: MosquittoBroker, id: String, username: String? = nil, password: String? = nil,
        will: MQTTMessage? = nil, keepAlive: Int = 30, start: Bool = true
    ) throws {
        var options = MQTTOptions(
            clientID: id, host: broker.host, port: broker.port, tls: broker.caFile != nil,
            caFile: broker.caFile, username: username, password: password, will: will)
        options.keepAlive = keepAlive
        try self.init(options, start: start)
    }

    init(_ options: MQTTOptions, start: Bool = true) throws {
        let events = EventRecorder<MQTTEvent>()
        client = try MQTTClient(options, onEvent: { events.record($0) })
        self.events = events
        if start { client.start() }
    }

    /// Waits for the `number`th `connected` (counting from 1).
    func connected(_ number: Int = 1, timeout: Double = 10) async -> Bool {
        await events.wait(timeout: timeout) { $0.filter { $0 == .connected }.count >= number }
    }

    /// Subscribes and waits until the broker has the subscription, by publishing a probe to `probeTopic` (which
    /// `pattern` must match) until it comes back.
    func subscribe(_ pattern: String, probeTopic: String, timeout: Double = 10) async throws -> Bool {
        client.subscribe(pattern)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            try client.publish(MQTTMessage(topic: probeTopic, payload: Data("probe".utf8), qos: 0))
            if await events.wait(timeout: 0.3, until: { $0.contains { $0.topic == probeTopic } }) { return true }
        }
        return false
    }

    /// The messages received on `topic`, payloads as text.
    func received(on topic: String) -> [String] {
        events.all.compactMap { event in
            if case .message(topic, let payload, _) = event { String(decoding: payload, as: UTF8.self) } else { nil }
        }
    }

    /// Waits until `payload` has arrived on `topic`.
    func receives(_ payload: String, on topic: String, timeout: Double = 10) async -> Bool {
        await events.wait(timeout: timeout) { _ in received(on: topic).contains(payload) }
    }
}

extension MQTTEvent {
    var topic: String? {
        if case .message(let topic, _, _) = self { topic } else { nil }
    }
}

extension MQTTMessage {
    init(_ topic: String, _ text: String, qos: Int32 = 1, retain: Bool = false) {
        self.init(topic: topic, payload: Data(text.utf8), qos: qos, retain: retain)
    }
}
