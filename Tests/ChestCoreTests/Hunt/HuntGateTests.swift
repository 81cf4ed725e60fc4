import Foundation
import Testing

@testable import ChestCore

/// The gate believes only this hunt's messages, from the key its file knows for the sender, on the sender's own
/// topic, and each only once; what it has seen survives a restart through Codable.
@Suite struct HuntGateTests {
    let hunt = HuntFixture.huntID
    func receiptTopic(_ team: String) -> String { HuntTopic.receipt(hunt: hunt, team: team, id: 1) }
    func statusTopic(_ team: String) -> String { HuntTopic.status(hunt: hunt, team: team) }

    @Test func aGoodReceiptIsAcceptedOnce() {
        var gate = HuntGate(hunt: HuntFixture.hunt())
        let envelope = HuntFixture.receiptEnvelope("red", id: 4)
        #expect(gate.admit(envelope, topic: receiptTopic("red"), signatureValid: true) == .accepted)
        #expect(gate.admit(envelope, topic: receiptTopic("red"), signatureValid: true) == .refused(.replayed))
        #expect(
            gate.admit(HuntFixture.receiptEnvelope("red", id: 2), topic: receiptTopic("red"), signatureValid: true)
                == .accepted, "an older id not seen yet is a receipt the outbox sent out of order, not a replay")
        #expect(
            gate.admit(HuntFixture.receiptEnvelope("blue", id: 4), topic: receiptTopic("blue"), signatureValid: true)
                == .accepted, "ids are per sender")
        #expect(gate.refused == [.replayed: 1])
        #expect(gate.seen.senders["red"]?.receipts == [2, 4])
    }

    @Test func refusalsAreNamedAndCounted() {
        var gate = HuntGate(hunt: HuntFixture.hunt())
        let red = HuntFixture.receiptEnvelope("red", id: 1)
        #expect(
            gate.admit(
                HuntFixture.receiptEnvelope("red", id: 1, hunt: HuntFixture.otherHuntID),
                topic: receiptTopic("red"), signatureValid: true) == .refused(.otherHunt))
        #expect(
            gate.admit(
                HuntFixture.signed(red, key: HuntFixture.key(0x55)), topic: receiptTopic("red"),
                signatureValid: true) == .refused(.unknownKey), "a key the file does not have")
        #expect(
            gate.admit(
                HuntFixture.signed(red, key: HuntFixture.hunt().teams[1].publicKey), topic: receiptTopic("red"),
                signatureValid: true) == .refused(.unknownKey), "blue's key signing as red")
        #expect(
            gate.admit(
                HuntFixture.receiptEnvelope("purple", id: 1), topic: receiptTopic("purple"), signatureValid: true)
                == .refused(.unknownKey), "a team not in the file")
        #expect(gate.admit(red, topic: receiptTopic("red"), signatureValid: false) == .refused(.badSignature))
        #expect(
            gate.admit(red, topic: receiptTopic("blue"), signatureValid: true) == .refused(.wrongTopic),
            "red's message republished on blue's topic")
        #expect(gate.admit(red, topic: statusTopic("red"), signatureValid: true) == .refused(.wrongTopic))
        #expect(gate.admit(red, topic: "owntracks/red/chest/event", signatureValid: true) == .refused(.wrongTopic))
        #expect(
            gate.admit(
                HuntFixture.releaseEnvelope("finale", id: 1), topic: HuntTopic.release(hunt: hunt, name: "other"),
                signatureValid: true) == .refused(.wrongTopic), "a release under another name's topic")
        gate.countMalformed()
        #expect(gate.refused == [.otherHunt: 1, .unknownKey: 3, .badSignature: 1, .wrongTopic: 4, .malformed: 1])
        #expect(
            gate.admit(red, topic: receiptTopic("red"), signatureValid: true) == .accepted,
            "refusals do not mark an id as seen")
    }

    @Test func statusesMustMoveForward() {
        var gate = HuntGate(hunt: HuntFixture.hunt())
        #expect(
            gate.admit(HuntFixture.statusEnvelope("red", id: 5), topic: statusTopic("red"), signatureValid: true)
                == .accepted)
        #expect(
            gate.admit(HuntFixture.statusEnvelope("red", id: 5), topic: statusTopic("red"), signatureValid: true)
                == .accepted, "the retained status in force, heard again by a new subscription")
        #expect(
            gate.admit(HuntFixture.statusEnvelope("red", id: 3), topic: statusTopic("red"), signatureValid: true)
                == .refused(.replayed), "an older retained status must not overwrite a newer one")
        #expect(
            gate.admit(HuntFixture.statusEnvelope("red", id: 9), topic: statusTopic("red"), signatureValid: true)
                == .accepted)
        #expect(
            gate.admit(HuntFixture.statusEnvelope("red", id: 5), topic: statusTopic("red"), signatureValid: true)
                == .refused(.replayed), "no longer the status in force")
        #expect(
            gate.admit(HuntFixture.receiptEnvelope("red", id: 6), topic: receiptTopic("red"), signatureValid: true)
                == .accepted, "receipts and statuses share the sender's ids but are judged apart")
    }

    func status(_ team: String, session: UInt64, count: UInt64?) -> HuntEnvelope {
        HuntFixture.signed(
            HuntEnvelope(
                hunt: HuntFixture.huntID, sender: team, id: TeamStatus.id(session: session, count: count),
                sent: CoreFixture.t0, status: TeamStatus(online: count != nil, pagesOpen: 1)))
    }

    @Test func aConnectionsWillComesAfterItsStatusesAndBeforeTheNextConnections() {
        var gate = HuntGate(hunt: HuntFixture.hunt())
        let topic = statusTopic("red")
        // Connection 10 says online twice, then dies: its will, signed first, still ranks last.
        #expect(gate.admit(status("red", session: 10, count: 1), topic: topic, signatureValid: true) == .accepted)
        #expect(gate.admit(status("red", session: 10, count: 2), topic: topic, signatureValid: true) == .accepted)
        #expect(gate.admit(status("red", session: 10, count: nil), topic: topic, signatureValid: true) == .accepted)
        #expect(
            gate.admit(status("red", session: 10, count: nil), topic: topic, signatureValid: true) == .accepted,
            "the retained will in force, heard again")
        // Connection 11: online; the old will replayed must not mark the team offline, nor an old online status.
        #expect(gate.admit(status("red", session: 11, count: 1), topic: topic, signatureValid: true) == .accepted)
        #expect(
            gate.admit(status("red", session: 10, count: nil), topic: topic, signatureValid: true)
                == .refused(.replayed))
        #expect(
            gate.admit(status("red", session: 10, count: 2), topic: topic, signatureValid: true) == .refused(.replayed))
        #expect(gate.admit(status("red", session: 11, count: nil), topic: topic, signatureValid: true) == .accepted)
    }

    @Test func theSameReleaseIsAcceptedAgainAndAnOlderOneIsNot() throws {
        var gate = HuntGate(hunt: try #require(HuntFixture.hunt().joinFile(team: TeamName("red")!)))
        let topic = HuntTopic.release(hunt: hunt, name: "finale")
        let first = HuntFixture.releaseEnvelope("finale", id: 10)
        #expect(gate.admit(first, topic: topic, signatureValid: true) == .accepted)
        #expect(gate.admit(first, topic: topic, signatureValid: true) == .accepted, "the retained release heard again")
        let newer = HuntFixture.releaseEnvelope("finale", id: 12, key: HuntFixture.releaseKey(0x21))
        #expect(gate.admit(newer, topic: topic, signatureValid: true) == .accepted)
        #expect(gate.admit(first, topic: topic, signatureValid: true) == .refused(.replayed))
        let sameIDOtherKey = HuntFixture.releaseEnvelope("finale", id: 12, key: HuntFixture.releaseKey(0x22))
        #expect(gate.admit(sameIDOtherKey, topic: topic, signatureValid: true) == .refused(.replayed))
        #expect(
            gate.admit(HuntFixture.receiptEnvelope("blue", id: 1), topic: receiptTopic("blue"), signatureValid: true)
                == .refused(.unknownKey), "a join file knows only its own team and the organiser")
    }

    @Test func whatWasSeenSurvivesARestart() throws {
        var gate = HuntGate(hunt: HuntFixture.hunt())
        _ = gate.admit(HuntFixture.receiptEnvelope("red", id: 1), topic: receiptTopic("red"), signatureValid: true)
        _ = gate.admit(HuntFixture.statusEnvelope("red", id: 2), topic: statusTopic("red"), signatureValid: true)
        _ = gate.admit(HuntFixture.statusEnvelope("red", id: 7), topic: statusTopic("red"), signatureValid: true)
        _ = gate.admit(
            HuntFixture.releaseEnvelope("finale", id: 3), topic: HuntTopic.release(hunt: hunt, name: "finale"),
            signatureValid: true)
        let stored = try ChestJSON.encoder().encode(gate.seen)
        var restarted = HuntGate(
            hunt: HuntFixture.hunt(), seen: try ChestJSON.decoder().decode(HuntGate.Seen.self, from: stored))
        #expect(restarted.seen == gate.seen)
        #expect(
            restarted.admit(HuntFixture.receiptEnvelope("red", id: 1), topic: receiptTopic("red"), signatureValid: true)
                == .refused(.replayed))
        #expect(
            restarted.admit(HuntFixture.statusEnvelope("red", id: 2), topic: statusTopic("red"), signatureValid: true)
                == .refused(.replayed))
        #expect(
            restarted.admit(HuntFixture.statusEnvelope("red", id: 7), topic: statusTopic("red"), signatureValid: true)
                == .accepted, "the retained status in force")
        #expect(
            restarted.admit(
                HuntFixture.releaseEnvelope("finale", id: 3),
                topic: HuntTopic.release(hunt: hunt, name: "finale"), signatureValid: true) == .accepted)
        #expect(
            restarted.admit(HuntFixture.receiptEnvelope("red", id: 4), topic: receiptTopic("red"), signatureValid: true)
                == .accepted)
    }
}
