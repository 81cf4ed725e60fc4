import ChestCore
import ChestIO
import ChestMQTT
import ChestSeal
import Foundation
import Synchronization

extension CityBench {
    /// `--flood INDEX`: the team at INDEX sends, as fast as the broker acknowledges them (at most 200 unacknowledged,
    /// QoS 1 as chestd publishes), a signed status (2,000 signed beforehand, ids rising, so each would pass the
    /// board's gate, then again) and a junk receipt (1 KB of random bytes, retained, on one of 100 receipt topics),
    /// until `--duration` ends or it is stopped; prints `city-flood: S statuses, J junk receipts in T s` every 5 s (docs/BENCHMARKS.md "A city").
    /// With `--on not-an-id`, only the signed statuses, each on one of 100 receipt topics whose last level is no id
    /// (`receipt/not-an-id-K`, which hunt.acl's `receipt/+` lets through: issue 61), at QoS 0, counted as junk
    /// receipts. With
    /// `--count N` it stops after N messages, with `--rate R` it sends at most R a second; it prints
    /// `city-flood: started` as it starts and `city-flood: done …` as it stops.
    static func flood(_ options: Options, team index: Int) {
        let hunt = try! HuntFile.read(path: options.hunt)
        let readers = try! Directory.makeTemporary("chest-city-flood")
        defer { try? FileManager.default.removeItem(atPath: readers) }
        let team = Team(
            team: hunt.teams[index], reader: try! Identity.loadOrCreate(at: "\(readers)/flood.json"), index: index)
        let broker = options.brokers[index % options.brokers.count]
        var mqtt = MQTTOptions(
            clientID: "city-\(team.team.name)", host: broker.host, port: broker.port, tls: true,
            caFile: options.caFile, username: team.team.name.rawValue, password: team.team.password)
        mqtt.keepAlive = 60
        let inFlight = Mutex(0)
        let connected = Mutex(false)
        let client = try! MQTTClient(mqtt) { event in
            switch event {
            case .connected: connected.withLock { $0 = true }
            case .disconnected, .connectionRefused: connected.withLock { $0 = false }
            case .delivered: inFlight.withLock { $0 -= 1 }
            default: break
            }
        }
        team.client = client
        client.start()
        waitUntil("the flooding team connected", deadline: 600) { connected.withLock { $0 } }
        // Made beforehand, so that the flood costs this machine's CPU what a flooding laptop elsewhere would not:
        // its signatures (two per status) took most of a core and loaded the machine under test (docs/BENCHMARKS.md).
        let signed = (1...2_000).map { status(team, hunt: hunt, count: 1_000 + UInt64($0)) }
        let junkPayloads = (0..<100).map { _ in Data(Sealer.randomBytes(1_024)) }
        print("city-flood: ready")
        fflush(nil)
        let start = Date()
        print("city-flood: started")
        fflush(nil)
        var statuses = 0
        var junk = 0
        var count: UInt64 = 0
        var reported = Date()
        func send(_ message: MQTTMessage) -> Bool {
            inFlight.withLock { $0 += 1 }
            guard (try? client.publish(message)) != nil else {
                inFlight.withLock { $0 -= 1 }
                return false
            }
            return true
        }
        let notAnIDTopics = (0..<100).map { "chest/\(hunt.id)/\(team.team.name)/receipt/not-an-id-\($0)" }
        while Date().timeIntervalSince(start) < options.duration, statuses + junk < options.floodCount ?? .max {
            let elapsed = Date().timeIntervalSince(start)
            if inFlight.withLock({ $0 }) >= 200 || !connected.withLock({ $0 })
                || options.floodRate.map({ Double(statuses + junk) >= $0 * elapsed }) ?? false
            {
                usleep(200)
            } else if options.notAnID {
                count += 1
                let status = signed[Int(count % 2_000)]
                // QoS 0, as `mosquitto_pub -l` sends a file's lines: the flooder waits for no acknowledgement (each
                // is still counted in flight until libmosquitto has written it).
                let message = MQTTMessage(
                    topic: notAnIDTopics[Int(count % 100)], payload: status.payload, qos: 0, retain: false)
                if send(message) { junk += 1 }
            } else {
                count += 1
                // The statuses' ids rise for the first 2,000, then start again (replays, after the rate's refusals).
                if send(signed[Int(count % 2_000)]) { statuses += 1 }
                let topic = HuntTopic.receipt(hunt: hunt.id, team: team.team.name.rawValue, id: count % 100 + 1)
                if send(MQTTMessage(topic: topic, payload: junkPayloads[Int(count % 100)], qos: 1, retain: true)) {
                    junk += 1
                }
            }
            if Date().timeIntervalSince(reported) >= 5 {
                reported = Date()
                print(
                    String(
                        format: "city-flood: %d statuses, %d junk receipts in %.1f s", statuses, junk,
                        reported.timeIntervalSince(start)))
                fflush(nil)
            }
        }
        waitUntil("the flood acknowledged", deadline: 120) { inFlight.withLock { $0 } <= 0 }
        print(
            String(
                format: "city-flood: done: %d statuses, %d junk receipts in %.1f s", statuses, junk,
                Date().timeIntervalSince(start)))
        fflush(nil)
        client.stop()
    }
}
