import ChestIO
import ChestTestSupport
import Foundation
import Testing

@testable import ChestMQTT

/// The shipped broker configuration (examples/mosquitto) run by a real Mosquitto, adapted only in ports and paths,
/// and bridged brokers.
@Suite(.realProcesses, .tags(.process, .mosquitto), .timeLimit(.minutes(1)))
struct HuntBrokerTests {
    static let passwords = ["a": "pw-a", "b": "pw-b", "organiser": "pw-organiser", "bridge": "pw-bridge"]

    @Test func theExampleACLKeepsEachTeamToItsOwnTopics() async throws {
        let broker = try Self.exampleBroker()
        let organiser = try peer(broker, "organiser")
        #expect(await organiser.connected(), "\(organiser.events.all)\n\(broker.log)")
        organiser.client.subscribe("owntracks/#")
        #expect(try await organiser.subscribe("chest/#", probeTopic: "chest/h/release/probe"))
        let a = try peer(broker, "a")
        let b = try peer(broker, "b")
        #expect(await a.connected())
        #expect(await b.connected())

        // Denied publishes vanish (the broker still acknowledges them, so a client cannot probe the ACL); a's
        // allowed messages that follow arrive, in order, after where the denied ones would have been.
        let forged = try a.client.publish(MQTTMessage("chest/h/b/receipt/1", "forged by a"))
        try a.client.publish(MQTTMessage("chest/h/release/p1", "key forged by a", retain: true))
        try a.client.publish(MQTTMessage("owntracks/b/phone/event", "forged by a"))
        // Below its own name, only the topics chestd writes: a retained junk topic would stay in the broker (issue 50).
        try a.client.publish(MQTTMessage("chest/h/a/junk/1", "junk", retain: true))
        try a.client.publish(MQTTMessage("owntracks/a/phone/event", "enter"))
        try a.client.publish(MQTTMessage("chest/h/a/receipt/1", "a's own"))
        #expect(await organiser.receives("a's own", on: "chest/h/a/receipt/1"), "\(organiser.events.all)")
        #expect(organiser.received(on: "owntracks/a/phone/event") == ["enter"])
        #expect(organiser.received(on: "chest/h/b/receipt/1").isEmpty)
        #expect(organiser.received(on: "chest/h/release/p1").isEmpty)
        #expect(organiser.received(on: "owntracks/b/phone/event").isEmpty)
        #expect(organiser.received(on: "chest/h/a/junk/1").isEmpty)
        // a's client takes the broker's acknowledgement on its own thread, which may come after the organiser has
        // a's later message.
        #expect(await a.events.wait(timeout: 10) { $0.contains(.delivered(forged)) }, "\(a.events.all)")

        // a cannot read b's progress, only the organiser's releases.
        a.client.subscribe("chest/h/b/#")
        a.client.subscribe("chest/h/release/#")
        try waitUntil("the broker has a's subscriptions", timeout: 10) {
            let log = broker.log
            return log.contains("a-\(broker.port) 1 chest/h/b/#")
                && log.contains("a-\(broker.port) 1 chest/h/release/#")
        }
        try b.client.publish(MQTTMessage("chest/h/b/receipt/1", "b's own"))
        #expect(await organiser.receives("b's own", on: "chest/h/b/receipt/1"))
        try organiser.client.publish(MQTTMessage("chest/h/release/p1", "key", retain: true))
        #expect(await a.receives("key", on: "chest/h/release/p1"), "\(a.events.all)")
        #expect(a.received(on: "chest/h/b/receipt/1").isEmpty, "\(a.events.all)")

        let anonymous = try MQTTPeer(broker, id: "anonymous")
        let wrong = try MQTTPeer(broker, id: "a-guess", username: "a", password: "pw-b")
        for refused in [anonymous, wrong] {
            #expect(
                await refused.events.wait(timeout: 10) {
                    $0.contains { if case .connectionRefused = $0 { true } else { false } }
                })
            #expect(!refused.events.all.contains(.connected))
        }
    }

    @Test func theExampleBridgeCarriesReceiptsUpAndReleasesDown() async throws {
        let main = try Self.exampleBroker()
        let edge = try Self.exampleBroker(bridgedTo: main)
        #expect(
            main.waitForBridge(
                "hunt-edge-1", timeout: 10, username: "organiser", password: Self.passwords["organiser"]),
            "\(edge.log)\n\(main.log)")
        let organiser = try peer(main, "organiser")
        #expect(await organiser.connected())
        organiser.client.subscribe("owntracks/#")
        #expect(try await organiser.subscribe("chest/#", probeTopic: "chest/h/release/probe"))
        let a = try peer(edge, "a")
        #expect(await a.connected())
        a.client.subscribe("chest/h/release/#")

        // Below its own name, only the topics chestd writes: a retained junk topic would stay in the broker (issue 50).
        try a.client.publish(MQTTMessage("chest/h/a/junk/1", "junk", retain: true))
        try a.client.publish(MQTTMessage("owntracks/a/phone/event", "enter"))
        try a.client.publish(MQTTMessage("chest/h/a/receipt/1", "a on the edge"))
        #expect(await organiser.receives("a on the edge", on: "chest/h/a/receipt/1"), "\(edge.log)")
        #expect(organiser.received(on: "owntracks/a/phone/event") == ["enter"])

        try organiser.client.publish(MQTTMessage("chest/h/release/p1", "key", retain: true))
        #expect(await a.receives("key", on: "chest/h/release/p1"), "\(a.events.all)")
        // The release stays retained on the edge too, for a team that connects there later.
        let b = try peer(edge, "b")
        b.client.subscribe("chest/h/release/#")
        #expect(
            await b.events.wait(timeout: 10) {
                $0.contains(.message(topic: "chest/h/release/p1", payload: Data("key".utf8), retained: true))
            }, "\(b.events.all)")
    }

    @Test func bridgedTestBrokersCarryChestAndOwnTracksBothWays() async throws {
        let (main, edge) = try MosquittoBroker.bridged()
        let board = try MQTTPeer(main, id: "board")
        #expect(await board.connected())
        board.client.subscribe("owntracks/#")
        #expect(try await board.subscribe("chest/#", probeTopic: "chest/h/release/probe"))
        let team = try MQTTPeer(edge, id: "team-a")
        #expect(await team.connected())
        #expect(try await team.subscribe("chest/h/release/#", probeTopic: "chest/h/release/edge-probe"))

        try team.client.publish(MQTTMessage("owntracks/a/phone/event", "enter"))
        try team.client.publish(MQTTMessage("chest/h/a/receipt/1", "from the edge"))
        #expect(await board.receives("from the edge", on: "chest/h/a/receipt/1"))
        #expect(board.received(on: "owntracks/a/phone/event") == ["enter"])
        try board.client.publish(MQTTMessage("chest/h/release/p1", "from the main broker"))
        #expect(await team.receives("from the main broker", on: "chest/h/release/p1"))
        // try_private: the edge's own message does not come back to it over the bridge a second time.
        #expect(
            team.received(on: "chest/h/release/edge-probe").count
                == board.received(on: "chest/h/release/edge-probe").count)
    }

    // MARK: The example files, adapted to a test

    func peer(_ broker: MosquittoBroker, _ user: String) throws -> MQTTPeer {
        try MQTTPeer(broker, id: "\(user)-\(broker.port)", username: user, password: Self.passwords[user])
    }

    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/mosquitto")

    /// A broker running examples/mosquitto/hunt.conf and hunt.acl (and bridge.conf when `main` is given), with the
    /// listener moved to a loopback port and the files to a temporary directory: nothing else is changed.
    static func exampleBroker(bridgedTo main: MosquittoBroker? = nil) throws -> MosquittoBroker {
        let directory = try makeTemporaryDirectory("hunt-broker")
        let port = FreePort.onLoopback()
        let authority = try TestCertificateAuthority(in: directory)
        let passwords = directory.appendingPathComponent("hunt.passwd").path
        try MosquittoBroker.writePasswordFile(Self.passwords, to: passwords)
        let acl = directory.appendingPathComponent("hunt.acl").path
        try FileManager.default.copyItem(atPath: examples.appendingPathComponent("hunt.acl").path, toPath: acl)
        var configuration = try adapt(
            "hunt.conf",
            [
                "listener": "\(port) 127.0.0.1", "cafile": authority.caFile, "certfile": authority.certificateFile,
                "keyfile": authority.keyFile, "password_file": passwords, "acl_file": acl,
            ])
        if let main {
            configuration += try adapt(
                "bridge.conf",
                [
                    "address": "127.0.0.1:\(main.port)", "bridge_cafile": try #require(main.caFile),
                    "remote_password": Self.passwords["bridge"]!,
                ])
        }
        // What Debian's /etc/mosquitto/mosquitto.conf sets and hunt.conf leaves to it.
        let debian =
            [MosquittoBroker.runAsLine, "persistence_location \(directory.path)/"]
            + MosquittoBroker.logLines(directory)
        return try MosquittoBroker(
            port: port, directory: directory,
            configuration: (debian + [configuration]).joined(separator: "\n"),
            caFile: authority.caFile)
    }

    /// The example file `name` with the value of each option in `values` replaced; each must occur exactly once.
    static func adapt(_ name: String, _ values: [String: String]) throws -> String {
        let text = try String(contentsOf: examples.appendingPathComponent(name), encoding: .utf8)
        var seen: [String: Int] = [:]
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let key = String(line.prefix { !$0.isWhitespace })
            guard !line.hasPrefix("#"), let value = values[key] else { return String(line) }
            seen[key, default: 0] += 1
            return "\(key) \(value)"
        }
        for key in values.keys { try #require(seen[key] == 1, "\(name): \(key) occurs \(seen[key] ?? 0) times") }
        return lines.joined(separator: "\n") + "\n"
    }
}
