import ChestCore
import ChestIO
import ChestMQTT
import ChestSeal
import FoundationEssentials

/// What `chest hunt release`, `adjust`, `schedule` and `say` share: the organiser's identity, checked against the
/// hunt file, and one signed message published retained, waiting for the broker's acknowledgement.
enum OrganiserPost {
    /// The organiser's clock in milliseconds, as releases' ids are.
    static func newID() -> UInt64 { UInt64(Date().timeIntervalSince1970 * 1000) }

    /// This user's identity, when it is the hunt's organiser's; `what` names what it signs ("releases are").
    static func identity(_ settings: Settings, hunt: HuntFile, signing what: String) throws -> Identity {
        let identity = try Identity.loadOrCreate(at: settings.identityPath)
        guard identity.publicKeyBase64 == hunt.organiser else {
            throw ChestError(
                "\(what) signed by the hunt's organiser, and your identity is not theirs; run this where chest hunt create ran"
            )
        }
        return identity
    }

    /// Publishes `envelope` on `topic`, retained, and returns once the broker acknowledged it; `what` names it in the
    /// error ("the release").
    static func publish(
        _ envelope: HuntEnvelope, topic: String, hunt: HuntFile, purpose: String, timeout: Double,
        what: String = "it"
    ) throws {
        try publish([(envelope, topic)], hunt: hunt, purpose: purpose, timeout: timeout, what: what)
    }

    /// Publishes each envelope on its topic, retained, in order, and returns once the broker acknowledged them all.
    static func publish(
        _ envelopes: [(HuntEnvelope, String)], hunt: HuntFile, purpose: String, timeout: Double, what: String = "it"
    ) throws {
        let link = try OrganiserLink(hunt: hunt, purpose: purpose)
        defer { link.stop() }
        try link.connect(within: timeout, broker: hunt.broker)
        var waiting: Set<Int32> = []
        for (envelope, topic) in envelopes {
            waiting.insert(
                try link.client.publish(MQTTMessage(topic: topic, payload: envelope.bytes, qos: 1, retain: true)))
        }
        let deadline = MonotonicClock.now() + timeout
        while MonotonicClock.now() < deadline, !waiting.isEmpty {
            if case let .delivered(mid) = link.next(within: deadline - MonotonicClock.now()) { waiting.remove(mid) }
        }
        guard waiting.isEmpty else {
            throw ChestError("the broker did not acknowledge \(what) within \(Int(timeout)) s; run the command again")
        }
    }
}
