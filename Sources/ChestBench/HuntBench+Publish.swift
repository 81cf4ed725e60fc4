import ChestCore
import ChestIO
import ChestMQTT
import Foundation
import Synchronization

extension HuntBench {
    /// Writes the hunt (on the broker at `broker`, HOST:PORT) to `huntPath` and publishes its receipts as a team's
    /// chestd does (QoS 1, retained, one topic each) over one connection; returns once the broker acknowledged all.
    /// With `shape.hold`, the last receipts are kept back and published one for each line read from standard input,
    /// each acknowledged by a line "published N" on standard output.
    static func publish(broker: String, huntPath: String, shape: Shape = Shape()) {
        let (hunt, all) = make(broker: "mqtt://" + broker, shape: shape)
        let messages = all.dropLast(shape.hold)
        try! hunt.write(to: huntPath)
        let parts = broker.split(separator: ":")
        let acknowledged = Mutex(0)
        let connected = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let count = messages.count
        let client = try! MQTTClient(
            MQTTOptions(
                clientID: "chest-bench-\(getpid())", host: String(parts[0]),
                port: Int(parts[1])!)
        ) { event in
            switch event {
            case .connected: connected.signal()
            case .delivered:
                if acknowledged.withLock({
                    $0 += 1
                    return $0
                }) == count {
                    done.signal()
                }
            default: break
            }
        }
        client.start()
        guard connected.wait(timeout: .now() + 10) == .success else { fatalError("no broker at \(broker)") }
        let start = DispatchTime.now()
        for (topic, payload) in messages {
            try! client.publish(MQTTMessage(topic: topic, payload: payload, qos: 1, retain: true))
        }
        guard done.wait(timeout: .now() + 300) == .success else {
            fatalError("the broker did not acknowledge them all")
        }
        let bytes = messages.reduce(0) { $0 + $1.payload.count }
        print(
            String(
                format: "published %d receipts (%.1f MB), retained, in %.2f s", count, Double(bytes) / 1e6,
                ChestBench.elapsed(since: start)))
        fflush(nil)
        for (index, (topic, payload)) in all.suffix(shape.hold).enumerated() {
            guard readLine() != nil else { break }
            try! client.publish(MQTTMessage(topic: topic, payload: payload, qos: 1, retain: true))
            print("published \(count + index + 1)")
            fflush(nil)
        }
        client.stop()
    }
}
