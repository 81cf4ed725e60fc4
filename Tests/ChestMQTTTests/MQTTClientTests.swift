import ChestIO
import ChestTestSupport
import Foundation
import Testing

@testable import ChestMQTT

/// MQTTClient against a real Mosquitto 2.0 broker on a loopback port.
@Suite(.realProcesses, .tags(.process, .mosquitto), .timeLimit(.minutes(1)))
struct MQTTClientTests {
    @Test func qos1MessagesAreAcknowledgedAndArriveInOrder() async throws {
        let broker = try MosquittoBroker.start()
        let board = try MQTTPeer(broker, id: "board")
        #expect(await board.connected())
        #expect(try await board.subscribe("chest/#", probeTopic: "chest/probe"))
        let team = try MQTTPeer(broker, id: "team-a")
        #expect(await team.connected())
        #expect(team.client.isConnected)

        let sent = (1...20).map { "receipt \($0)" }
        var ids: [Int32] = []
        for text in sent { ids.append(try team.client.publish(MQTTMessage("chest/h/a/receipt", text))) }
        #expect(Set(ids).count == ids.count)
        #expect(await team.events.wait(timeout: 10) { events in ids.allSatisfy { events.contains(.delivered($0)) } })
        #expect(
            await board.events.wait(timeout: 10) { _ in board.received(on: "chest/h/a/receipt").count == sent.count })
        #expect(board.received(on: "chest/h/a/receipt") == sent)
        // An independent client sees the same.
        let sub = try broker.subscriber(["chest/h/a/#"])
        defer { sub.terminate() }
        #expect(await board.events.wait(timeout: 5) { _ in broker.log.contains("1 chest/h/a/#") })
        try team.client.publish(MQTTMessage("chest/h/a/receipt", "seen by mosquitto_sub"))
        #expect(
            await board.events.wait(timeout: 5) { _ in
                sub.outputText.contains("chest/h/a/receipt seen by mosquitto_sub\n")
            },
            "\(sub.outputText)")
        #expect(
            board.events.all.contains(
                .message(topic: "chest/h/a/receipt", payload: Data("receipt 1".utf8), retained: false)))
        team.client.stop()
        board.client.stop()
    }

    @Test func aRetainedMessageReachesALaterSubscriber() async throws {
        let broker = try MosquittoBroker.start()
        let team = try MQTTPeer(broker, id: "team-a")
        #expect(await team.connected())
        let id = try team.client.publish(MQTTMessage("chest/h/a/status", "online", retain: true))
        #expect(await team.events.wait(timeout: 10) { $0.contains(.delivered(id)) })

        let board = try MQTTPeer(broker, id: "board")
        board.client.subscribe("chest/h/+/status")
        #expect(
            await board.events.wait(timeout: 10) {
                $0.contains(.message(topic: "chest/h/a/status", payload: Data("online".utf8), retained: true))
            })
    }

    @Test func theWillIsPublishedWhenTheConnectionDiesAndNotOnACleanStop() async throws {
        let broker = try MosquittoBroker.start()
        let board = try MQTTPeer(broker, id: "board")
        #expect(await board.connected())
        #expect(try await board.subscribe("chest/h/+/status", probeTopic: "chest/h/probe/status"))

        let a = try MQTTPeer(broker, id: "team-a", will: MQTTMessage("chest/h/a/status", "offline", retain: true))
        #expect(await a.connected())
        try a.client.publish(MQTTMessage("chest/h/a/status", "online", retain: true))
        #expect(await board.receives("online", on: "chest/h/a/status"))
        // The TCP connection ends without a DISCONNECT, as when the laptop's network or process dies.
        a.client.dropConnection()
        #expect(await board.receives("offline", on: "chest/h/a/status"))
        #expect(await a.connected(2))
        let disconnected = a.events.all.firstIndex { if case .disconnected = $0 { true } else { false } }
        #expect(disconnected.map { $0 < a.events.all.lastIndex(of: .connected)! } == true, "\(a.events.all)")
        // The will was retained: a board that starts later sees the team offline.
        let late = try MQTTPeer(broker, id: "late-board")
        late.client.subscribe("chest/h/a/status")
        #expect(
            await late.events.wait(timeout: 10) {
                $0.contains(.message(topic: "chest/h/a/status", payload: Data("offline".utf8), retained: true))
            })

        let b = try MQTTPeer(broker, id: "team-b", will: MQTTMessage("chest/h/b/status", "offline", retain: true))
        #expect(await b.connected())
        try b.client.publish(MQTTMessage("chest/h/b/status", "online", retain: true))
        #expect(await board.receives("online", on: "chest/h/b/status"))
        b.client.stop()
        #expect(!b.client.isConnected)
        // The broker has handled b's DISCONNECT before it takes a message from a client that connects afterwards.
        try broker.publish("chest/h/marker/status", "after")
        #expect(await board.receives("after", on: "chest/h/marker/status"))
        #expect(board.received(on: "chest/h/b/status") == ["online"])
        let eventsAfterStop = b.events.all.count
        // Another round trip through the broker: b, stopped, hears nothing meanwhile.
        try broker.publish("chest/h/marker/status", "later")
        #expect(await board.receives("later", on: "chest/h/marker/status"))
        #expect(b.events.all.count == eventsAfterStop)
        b.client.stop()  // idempotent
    }

    /// libmosquitto takes a packet read after `mosquitto_disconnect` for a protocol error and closes the socket
    /// without the DISCONNECT, so a stop called while messages arrive made the broker publish the will: a team
    /// hearing a busy board, or the PUBACK of its last receipt not yet read. The client reads nothing once stopping.
    @Test func aCleanStopWhileMessagesArriveSendsTheDisconnect() async throws {
        let broker = try MosquittoBroker.start()
        let board = try MQTTPeer(broker, id: "board")
        #expect(await board.connected())
        #expect(try await board.subscribe("chest/h/+/status", probeTopic: "chest/h/probe/status"))
        let feed = try MQTTPeer(broker, id: "feed")
        #expect(await feed.connected())
        let teams = 0..<6
        let peers = try teams.map {
            try MQTTPeer(broker, id: "team-\($0)", will: MQTTMessage("chest/h/\($0)/status", "offline", retain: true))
        }
        for peer in peers {
            #expect(await peer.connected())
            #expect(try await peer.subscribe("chest/h/feed", probeTopic: "chest/h/feed"))
        }
        // A feed that never pauses, so that packets are on their way to each team as it stops.
        let feeding = Task.detached {
            while !Task.isCancelled {
                _ = try? feed.client.publish(MQTTMessage("chest/h/feed", "news", qos: 0))
                try? await Task.sleep(for: .milliseconds(1))
            }
        }
        for (team, peer) in zip(teams, peers) {
            #expect(await peer.events.wait(timeout: 10) { $0.filter { $0.topic == "chest/h/feed" }.count > 20 })
            // A receipt whose PUBACK is on its way too.
            _ = try? peer.client.publish(MQTTMessage("chest/h/\(team)/status", "online", retain: true))
            peer.client.stop()
        }
        feeding.cancel()
        try broker.publish("chest/h/marker/status", "after")
        #expect(await board.receives("after", on: "chest/h/marker/status"))
        let wills = teams.filter { board.received(on: "chest/h/\($0)/status").contains("offline") }
        #expect(wills.isEmpty, "the broker published the will of teams \(wills) after a clean stop: \(broker.log)")
    }

    @Test func publishingWhileNotConnectedThrowsNotConnected() async throws {
        let unstarted = try MQTTPeer(
            MQTTOptions(clientID: "early", host: "127.0.0.1", port: FreePort.onLoopback()),
            start: false)
        #expect(throws: MQTTError.self) { try unstarted.client.publish(MQTTMessage("chest/h/a/receipt", "r")) }
        unstarted.client.stop()

        let nobody = FreePort.onLoopback()
        let team = try MQTTPeer(MQTTOptions(clientID: "team-a", host: "127.0.0.1", port: nobody))
        #expect(
            await team.events.wait(timeout: 10) { $0.contains { if case .disconnected = $0 { true } else { false } } })
        #expect(team.events.all == [.disconnected("Connection refused")], "\(team.events.all)")
        #expect(!team.client.isConnected)
        do {
            try team.client.publish(MQTTMessage("chest/h/a/receipt", "r"))
            Issue.record("publish did not throw")
        } catch {
            #expect(error.isNotConnected)
            #expect(error.description == "The client is not currently connected.")
        }
        team.client.stop()
    }

    @Test func aPersistentSessionGetsWhatArrivedWhileTheBrokerWasKilledAndRestarted() async throws {
        let broker = try MosquittoBroker.start()
        let database = broker.directory.appendingPathComponent("mosquitto.db").path
        let reader = try MQTTPeer(broker, id: "reader-laptop")
        #expect(await reader.connected())
        #expect(try await reader.subscribe("chest/h/release/#", probeTopic: "chest/h/release/probe"))
        #expect(try await reader.subscribe("chest/h/a/#", probeTopic: "chest/h/a/probe"))
        // Autosave writes the session (client ID and subscription) right after the change.
        #expect(
            await reader.events.wait(timeout: 5) { _ in
                guard let subscribed = broker.log.range(of: "reader-laptop 1 chest/h/release/#") else { return false }
                return broker.log[subscribed.upperBound...].contains("Saving in-memory database")
            }, "\(broker.log)")
        #expect(FileManager.default.fileExists(atPath: database))

        broker.kill()
        #expect(
            await reader.events.wait(timeout: 10) { $0.contains(.disconnected("The connection was lost.")) },
            "\(reader.events.all)")
        // The first retry, a second later, fails; the next one comes 4 s after that.
        #expect(
            await reader.events.wait(timeout: 5) { $0.contains(.disconnected("Connection refused")) },
            "\(reader.events.all)")
        // Refused here, so not left in libmosquitto's queue to go out behind the outbox's back after reconnecting.
        #expect(throws: MQTTError.self) { try reader.client.publish(MQTTMessage("chest/h/a/receipt", "while away")) }
        try broker.restart()
        try broker.publish("chest/h/release/p1", "key 1")
        #expect(!reader.client.isConnected)

        #expect(await reader.connected(2, timeout: 15))
        #expect(
            await reader.events.wait(timeout: 10) {
                $0.contains(.message(topic: "chest/h/release/p1", payload: Data("key 1".utf8), retained: false))
            }, "\(reader.events.all)\n\(broker.log)")
        let id = try reader.client.publish(MQTTMessage("chest/h/a/receipt", "after the restart"))
        #expect(await reader.events.wait(timeout: 10) { $0.contains(.delivered(id)) })
        #expect(await reader.receives("after the restart", on: "chest/h/a/receipt"))
        #expect(reader.received(on: "chest/h/a/receipt") == ["after the restart"])
        reader.client.stop()
    }

    @Test func subscriptionsAreSentAgainWhenTheBrokerForgotTheSession() async throws {
        let broker = try MosquittoBroker.start()
        var options = MQTTOptions(clientID: "forgetful", host: broker.host, port: broker.port)
        options.cleanSession = true
        let reader = try MQTTPeer(options)
        #expect(await reader.connected())
        #expect(try await reader.subscribe("chest/h/release/#", probeTopic: "chest/h/release/probe"))
        // With a clean session the broker drops the subscription with the connection.
        reader.client.dropConnection()
        #expect(await reader.connected(2))
        try broker.publish("chest/h/release/p1", "key")
        #expect(await reader.receives("key", on: "chest/h/release/p1"), "\(reader.events.all)\n\(broker.log)")
        reader.client.stop()
    }

    @Test func theEventHandlerMayStopTheClient() async throws {
        let broker = try MosquittoBroker.start()
        let events = EventRecorder<MQTTEvent>()
        let holder = Holder()
        let client = try MQTTClient(MQTTOptions(clientID: "stops-itself", host: broker.host, port: broker.port)) {
            event in
            events.record(event)
            if event == .connected { holder.client?.stop() }
        }
        holder.client = client
        client.start()
        #expect(await events.wait(timeout: 10) { $0.contains(.connected) })
        #expect(
            await events.wait(timeout: 5) { _ in broker.log.contains("Client stops-itself disconnected.") },
            "\(broker.log)")
        #expect(!client.isConnected)
        #expect(throws: MQTTError.self) { try client.publish(MQTTMessage("chest/h/a/receipt", "late")) }
        client.stop()
        #expect(events.all == [.connected])
    }

    final class Holder: @unchecked Sendable {
        var client: MQTTClient?
    }

    @Test func aWrongPasswordIsRefusedAndTheRightOneAccepted() async throws {
        let broker = try MosquittoBroker.start(users: ["team-a": "correct horse"])
        let wrong = try MQTTPeer(broker, id: "team-a", username: "team-a", password: "wrong")
        #expect(
            await wrong.events.wait(timeout: 10) {
                $0.contains { if case .connectionRefused = $0 { true } else { false } }
            })
        #expect(
            wrong.events.all.first == .connectionRefused("Connection Refused: not authorised."), "\(wrong.events.all)")
        #expect(!wrong.client.isConnected)
        wrong.client.stop()
        #expect(!wrong.events.all.contains(.connected))

        let right = try MQTTPeer(broker, id: "team-a", username: "team-a", password: "correct horse")
        #expect(await right.connected())
        let anonymous = try MQTTPeer(broker, id: "nobody")
        #expect(
            await anonymous.events.wait(timeout: 10) {
                $0.contains { if case .connectionRefused = $0 { true } else { false } }
            })
    }

    @Test func tlsWithTheTestCAConnectsAndAnUntrustedCertificateDoesNot() async throws {
        let broker = try MosquittoBroker.start(tls: true)
        let caFile = try #require(broker.caFile)
        let team = try MQTTPeer(broker, id: "team-a")
        #expect(await team.connected(), "\(team.events.all)\n\(broker.log)")
        #expect(try await team.subscribe("chest/#", probeTopic: "chest/h/a/receipt"))

        // The system's CAs do not know the test CA: the handshake fails, and the client keeps trying.
        let untrusting = try MQTTPeer(MQTTOptions(clientID: "team-b", host: broker.host, port: broker.port, tls: true))
        #expect(
            await untrusting.events.wait(timeout: 10) { $0.contains(.disconnected("A TLS error occurred.")) },
            "\(untrusting.events.all)")
        #expect(
            await untrusting.events.wait(timeout: 5) { _ in
                broker.log.components(separatedBy: "tlsv1 alert unknown ca").count - 1 >= 2
            }, "\(broker.log)")
        #expect(!untrusting.events.all.contains(.connected))
        untrusting.client.stop()

        // Connecting by name checks the certificate's DNS name instead of its IP address.
        let byName = try MQTTPeer(
            MQTTOptions(
                clientID: "team-c", host: "localhost", port: broker.port, tls: true,
                caFile: caFile))
        #expect(await byName.connected(), "\(byName.events.all)")
        #expect(throws: MQTTError.self) {
            try MQTTClient(MQTTOptions(clientID: "x", host: "h", port: 1, tls: true, caFile: "/nonexistent/ca.crt")) {
                _ in
            }
        }
    }
}
