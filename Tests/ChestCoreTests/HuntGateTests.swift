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
        #expect(gate.admit(HuntFixture.receiptEnvelope("red", id: 2), topic: receiptTopic("red"), signatureValid: true)
                == .accepted, "an older id not seen yet is a receipt the outbox sent out of order, not a replay")
        #expect(gate.admit(HuntFixture.receiptEnvelope("blue", id: 4), topic: receiptTopic("blue"), signatureValid: true)
                == .accepted, "ids are per sender")
        #expect(gate.refused == [.replayed: 1])
        #expect(gate.seen.senders["red"]?.receipts == [2, 4])
    }

    @Test func refusalsAreNamedAndCounted() {
        var gate = HuntGate(hunt: HuntFixture.hunt())
        let red = HuntFixture.receiptEnvelope("red", id: 1)
        #expect(gate.admit(HuntFixture.receiptEnvelope("red", id: 1, hunt: HuntFixture.otherHuntID),
                           topic: receiptTopic("red"), signatureValid: true) == .refused(.otherHunt))
        #expect(gate.admit(HuntFixture.signed(red, key: HuntFixture.key(0x55)), topic: receiptTopic("red"),
                           signatureValid: true) == .refused(.unknownKey), "a key the file does not have")
        #expect(gate.admit(HuntFixture.signed(red, key: HuntFixture.hunt().teams[1].publicKey), topic: receiptTopic("red"),
                           signatureValid: true) == .refused(.unknownKey), "blue's key signing as red")
        #expect(gate.admit(HuntFixture.receiptEnvelope("purple", id: 1), topic: receiptTopic("purple"), signatureValid: true)
                == .refused(.unknownKey), "a team not in the file")
        #expect(gate.admit(red, topic: receiptTopic("red"), signatureValid: false) == .refused(.badSignature))
        #expect(gate.admit(red, topic: receiptTopic("blue"), signatureValid: true) == .refused(.wrongTopic),
                "red's message republished on blue's topic")
        #expect(gate.admit(red, topic: statusTopic("red"), signatureValid: true) == .refused(.wrongTopic))
        #expect(gate.admit(red, topic: "owntracks/red/chest/event", signatureValid: true) == .refused(.wrongTopic))
        #expect(gate.admit(HuntFixture.releaseEnvelope("finale", id: 1), topic: HuntTopic.release(hunt: hunt, name: "other"),
                           signatureValid: true) == .refused(.wrongTopic), "a release under another name's topic")
        gate.countMalformed()
        #expect(gate.refused == [.otherHunt: 1, .unknownKey: 3, .badSignature: 1, .wrongTopic: 4, .malformed: 1])
        #expect(gate.admit(red, topic: receiptTopic("red"), signatureValid: true) == .accepted,
                "refusals do not mark an id as seen")
    }

    @Test func statusesMustMoveForward() {
        var gate = HuntGate(hunt: HuntFixture.hunt())
        #expect(gate.admit(HuntFixture.statusEnvelope("red", id: 5), topic: statusTopic("red"), signatureValid: true) == .accepted)
        #expect(gate.admit(HuntFixture.statusEnvelope("red", id: 5), topic: statusTopic("red"), signatureValid: true)
                == .accepted, "the retained status in force, heard again by a new subscription")
        #expect(gate.admit(HuntFixture.statusEnvelope("red", id: 3), topic: statusTopic("red"), signatureValid: true)
                == .refused(.replayed), "an older retained status must not overwrite a newer one")
        #expect(gate.admit(HuntFixture.statusEnvelope("red", id: 9), topic: statusTopic("red"), signatureValid: true) == .accepted)
        #expect(gate.admit(HuntFixture.statusEnvelope("red", id: 5), topic: statusTopic("red"), signatureValid: true)
                == .refused(.replayed), "no longer the status in force")
        #expect(gate.admit(HuntFixture.receiptEnvelope("red", id: 6), topic: receiptTopic("red"), signatureValid: true)
                == .accepted, "receipts and statuses share the sender's ids but are judged apart")
    }

    func will(_ team: String, id: UInt64) -> HuntEnvelope {
        HuntFixture.signed(HuntEnvelope(hunt: HuntFixture.huntID, sender: team, id: id, sent: CoreFixture.t0,
                                        status: TeamStatus(online: false, pagesOpen: 0)))
    }

    func online(_ team: String, id: UInt64, will: UInt64) -> HuntEnvelope {
        HuntFixture.signed(HuntEnvelope(hunt: HuntFixture.huntID, sender: team, id: id, sent: CoreFixture.t0,
                                        status: TeamStatus(online: true, pagesOpen: 1, trust: .hardware, will: will)))
    }

    @Test func theWillOfTheConnectionInForceIsAcceptedOnceAndNoOlderOne() {
        var gate = HuntGate(hunt: HuntFixture.hunt())
        let topic = statusTopic("red")
        // Connection 1 registered will 10, then said online with 11 and 14.
        #expect(gate.admit(online("red", id: 11, will: 10), topic: topic, signatureValid: true) == .accepted)
        #expect(gate.admit(online("red", id: 14, will: 10), topic: topic, signatureValid: true) == .accepted)
        #expect(gate.admit(will("red", id: 10), topic: topic, signatureValid: true) == .accepted, "the connection died")
        #expect(gate.admit(will("red", id: 10), topic: topic, signatureValid: true) == .accepted,
                "the retained will in force, heard again")
        // Connection 2: will 20, online 21; the old will replayed must not mark the team offline.
        #expect(gate.admit(online("red", id: 21, will: 20), topic: topic, signatureValid: true) == .accepted)
        #expect(gate.admit(will("red", id: 10), topic: topic, signatureValid: true) == .refused(.replayed))
        #expect(gate.admit(will("red", id: 19), topic: topic, signatureValid: true) == .refused(.replayed),
                "an offline status below the one in force that is not its will")
        #expect(gate.admit(will("red", id: 20), topic: topic, signatureValid: true) == .accepted)
        #expect(gate.admit(online("red", id: 11, will: 10), topic: topic, signatureValid: true) == .refused(.replayed))
        // A graceful stop: an ordinary offline status, above everything; no will is pending after it.
        #expect(gate.admit(online("red", id: 31, will: 30), topic: topic, signatureValid: true) == .accepted)
        #expect(gate.admit(will("red", id: 32), topic: topic, signatureValid: true) == .accepted)
        #expect(gate.admit(will("red", id: 30), topic: topic, signatureValid: true) == .refused(.replayed))
    }

    @Test func theSameReleaseIsAcceptedAgainAndAnOlderOneIsNot() throws {
        var gate = HuntGate(hunt: try #require(HuntFixture.hunt().joinFile(team: "red")))
        let topic = HuntTopic.release(hunt: hunt, name: "finale")
        let first = HuntFixture.releaseEnvelope("finale", id: 10)
        #expect(gate.admit(first, topic: topic, signatureValid: true) == .accepted)
        #expect(gate.admit(first, topic: topic, signatureValid: true) == .accepted, "the retained release heard again")
        let newer = HuntFixture.releaseEnvelope("finale", id: 12, key: HuntFixture.key(0x21))
        #expect(gate.admit(newer, topic: topic, signatureValid: true) == .accepted)
        #expect(gate.admit(first, topic: topic, signatureValid: true) == .refused(.replayed))
        let sameIDOtherKey = HuntFixture.releaseEnvelope("finale", id: 12, key: HuntFixture.key(0x22))
        #expect(gate.admit(sameIDOtherKey, topic: topic, signatureValid: true) == .refused(.replayed))
        #expect(gate.admit(HuntFixture.receiptEnvelope("blue", id: 1), topic: receiptTopic("blue"), signatureValid: true)
                == .refused(.unknownKey), "a join file knows only its own team and the organiser")
    }

    @Test func whatWasSeenSurvivesARestart() throws {
        var gate = HuntGate(hunt: HuntFixture.hunt())
        _ = gate.admit(HuntFixture.receiptEnvelope("red", id: 1), topic: receiptTopic("red"), signatureValid: true)
        _ = gate.admit(HuntFixture.statusEnvelope("red", id: 2), topic: statusTopic("red"), signatureValid: true)
        _ = gate.admit(HuntFixture.statusEnvelope("red", id: 7), topic: statusTopic("red"), signatureValid: true)
        _ = gate.admit(HuntFixture.releaseEnvelope("finale", id: 3), topic: HuntTopic.release(hunt: hunt, name: "finale"),
                       signatureValid: true)
        let stored = try ChestJSON.encoder().encode(gate.seen)
        var restarted = HuntGate(hunt: HuntFixture.hunt(), seen: try ChestJSON.decoder().decode(HuntGate.Seen.self, from: stored))
        #expect(restarted.seen == gate.seen)
        #expect(restarted.admit(HuntFixture.receiptEnvelope("red", id: 1), topic: receiptTopic("red"), signatureValid: true)
                == .refused(.replayed))
        #expect(restarted.admit(HuntFixture.statusEnvelope("red", id: 2), topic: statusTopic("red"), signatureValid: true)
                == .refused(.replayed))
        #expect(restarted.admit(HuntFixture.statusEnvelope("red", id: 7), topic: statusTopic("red"), signatureValid: true)
                == .accepted, "the retained status in force")
        #expect(restarted.admit(HuntFixture.releaseEnvelope("finale", id: 3),
                                topic: HuntTopic.release(hunt: hunt, name: "finale"), signatureValid: true) == .accepted)
        #expect(restarted.admit(HuntFixture.receiptEnvelope("red", id: 4), topic: receiptTopic("red"), signatureValid: true)
                == .accepted)
    }
}
