import Foundation
import Testing

@testable import ChestCore

private typealias F = CoreFixture

/// A team's question and the organiser's word to one team (docs/HUNTS.md "A team's question, a word to one team"):
/// their topics, envelopes and gate, the engine telling a sealed word once, and the board keeping questions across a
/// journal replay.
@Suite struct HuntAskTests {
    let hunt = HuntFixture.huntID
    /// A sealed box's shape: 48 bytes of libsodium's overhead and 11 of text (ChestCore checks shapes, not boxes).
    static let sealed = HuntFixture.key(0x55, count: 59)

    static func ask(_ team: String, id: UInt64, _ text: String = "Which bridge?") -> HuntEnvelope {
        HuntFixture.signed(
            HuntEnvelope(
                hunt: HuntFixture.huntID, sender: team, id: id, sent: F.t0, ask: HuntQuestion(text: text)))
    }

    static func told(_ team: String, id: UInt64, sealed: String = sealed, key: String? = nil) -> HuntEnvelope {
        HuntFixture.signed(
            HuntEnvelope(
                hunt: HuntFixture.huntID, id: id, sent: F.t0.addingTimeInterval(Double(id)),
                told: HuntTeamWord(team: team, sealed: sealed)), key: key)
    }

    @Test func topicsParseBackAndTheToldOneIsNoWordToEveryTeam() {
        let ask = HuntTopic.ask(hunt: hunt, team: "red", id: 3)
        #expect(ask == "chest/\(hunt)/red/ask/3")
        #expect(HuntTopic.parse(ask, hunt: hunt) == .ask(team: "red", id: 3))
        // Below the team's name: TeamRate rates it like every other topic of the team.
        #expect(HuntTopic.teamLevel(ask, under: HuntTopic.prefix(hunt: hunt)) == "red")
        let told = HuntTopic.told(hunt: hunt, team: "red", id: 1_700_000_000_000)
        #expect(told == "chest/\(hunt)/organiser/told/red/1700000000000")
        #expect(HuntTopic.parse(told, hunt: hunt) == .told(team: "red", id: 1_700_000_000_000))
        #expect(HuntTopic.toldTo(hunt: hunt, team: "red") == "chest/\(hunt)/organiser/told/red/+")
        // Not below say/, which every team reads (examples/mosquitto/hunt.acl).
        #expect(!told.hasPrefix("chest/\(hunt)/organiser/say/"))
        for hostile in [
            "chest/\(hunt)/organiser/ask/3", "chest/\(hunt)/red/ask/03", "chest/\(hunt)/red/ask/x",
            "chest/\(hunt)/red/told/red/3", "chest/\(hunt)/organiser/told/red/x", "chest/\(hunt)/organiser/told/+/3",
            "chest/\(hunt)/organiser/told/red", "chest/\(hunt)/organiser/told/red/3/4",
        ] {
            #expect(HuntTopic.parse(hostile, hunt: hunt) == nil, "\(hostile)")
        }
    }

    @Test func envelopesRoundTripAndRefuseTheWrongSenderOrText() throws {
        for envelope in [Self.ask("red", id: 1), Self.told("red", id: 2)] {
            #expect(try HuntEnvelope.decode(envelope.bytes) == envelope)
        }
        var fromOrganiser = Self.ask("red", id: 1)
        fromOrganiser.sender = HuntEnvelope.organiserSender
        #expect(throws: HuntError("the organiser asks no questions")) { try HuntEnvelope.decode(fromOrganiser.bytes) }
        var fromTeam = Self.told("red", id: 1)
        fromTeam.sender = "blue"
        #expect(throws: HuntError("a word to a team must come from the organiser")) {
            try HuntEnvelope.decode(fromTeam.bytes)
        }
        #expect(throws: HuntError("the question has control characters; write plain text (line breaks are fine)")) {
            try HuntEnvelope.decode(Self.ask("red", id: 1, "ring\u{7}bell").bytes)
        }
        #expect(throws: HuntError("the question is empty")) {
            try HuntEnvelope.decode(Self.ask("red", id: 1, " ").bytes)
        }
        #expect(throws: HuntError("the told word's team or sealed text is malformed")) {
            try HuntEnvelope.decode(Self.told("red", id: 1, sealed: HuntFixture.key(1, count: 48)).bytes)
        }
        #expect(HuntQuestion.problem(String(repeating: "?", count: 501)) != nil)
        #expect(HuntQuestion.problem(String(repeating: "?", count: 500)) == nil)
    }

    @Test func theGateTakesEachOnItsOwnTopicOnce() {
        var gate = HuntGate(hunt: HuntFixture.hunt())
        let ask = Self.ask("red", id: 1)
        let topic = HuntTopic.ask(hunt: hunt, team: "red", id: 1)
        #expect(gate.admit(ask, topic: topic, signatureValid: true) == .accepted)
        #expect(gate.admit(ask, topic: topic, signatureValid: true) == .refused(.replayed))
        #expect(
            gate.admit(
                Self.ask("red", id: 2), topic: HuntTopic.ask(hunt: hunt, team: "blue", id: 2), signatureValid: true)
                == .refused(.wrongTopic))
        let told = Self.told("red", id: 7)
        let toldTopic = HuntTopic.told(hunt: hunt, team: "red", id: 7)
        #expect(gate.admit(told, topic: toldTopic, signatureValid: true) == .accepted)
        // Retained, heard again on every subscription: still accepted; another box under its id is a replay.
        #expect(gate.admit(told, topic: toldTopic, signatureValid: true) == .accepted)
        #expect(
            gate.admit(
                Self.told("red", id: 7, sealed: HuntFixture.key(0x56, count: 59)), topic: toldTopic,
                signatureValid: true)
                == .refused(.replayed))
        // Another team's topic, another id than the topic's, or a word to all teams' topic: wrong.
        #expect(
            gate.admit(told, topic: HuntTopic.told(hunt: hunt, team: "blue", id: 7), signatureValid: true)
                == .refused(.wrongTopic))
        #expect(
            gate.admit(told, topic: HuntTopic.told(hunt: hunt, team: "red", id: 8), signatureValid: true)
                == .refused(.wrongTopic))
        #expect(
            gate.admit(told, topic: HuntTopic.said(hunt: hunt, id: 7), signatureValid: true) == .refused(.wrongTopic))
    }

    static func hear(_ engine: inout Engine, _ envelope: HuntEnvelope, opened: String?, at seconds: Double)
        -> [Engine.Effect]
    {
        guard case let .told(word) = envelope.body else { return [] }
        return engine.handle(
            .hunt(
                .sealedKey(
                    envelope, topic: HuntTopic.told(hunt: HuntFixture.huntID, team: word.team, id: envelope.id),
                    signatureValid: true, key: opened.map { Array($0.utf8) }), F.now(seconds)))
    }

    @Test func theEngineTellsAWordToThisTeamOnceMarkedAsItsAlone() throws {
        let organiser = EngineScheduleTests.organiser
        var (engine, _) = EngineScheduleTests.engine(EngineScheduleTests.join(), [])
        let first = Self.hear(&engine, Self.told("red", id: 5, key: organiser), opened: "Yes, the old one.", at: 1)
        let told = first.compactMap { if case let .emit(.said(said, _, _)) = $0 { said } else { nil } }
        #expect(told == [HuntWord.Said(id: 5, text: "Yes, the old one.", at: F.t0.addingTimeInterval(5), team: "red")])
        #expect(first.contains { if case .announce(let said, _) = $0 { said.team == "red" } else { false } })
        #expect(engine.hunt?.said?.last?.team == "red")
        // Heard again (retained): not told again; after a restart, with the kept word, neither.
        #expect(Self.hear(&engine, Self.told("red", id: 5, key: organiser), opened: "Yes, the old one.", at: 2).isEmpty)
        let word = try #require(EngineScheduleTests.kept(first))
        var (again, _) = EngineScheduleTests.engine(EngineScheduleTests.join(), [], word: word)
        #expect(Self.hear(&again, Self.told("red", id: 5, key: organiser), opened: "Yes, the old one.", at: 3).isEmpty)
        // A word to every team under the same id is another word, told as such.
        #expect(
            EngineScheduleTests.say(&again, id: 5, "Ten minutes left.", at: 4).contains {
                if case let .emit(.said(said, _, _)) = $0 { said.team == nil } else { false }
            })
        // Another team's word is not told; one that did not open, or opened to no text, is ignored and said so.
        #expect(Self.hear(&again, Self.told("blue", id: 6, key: organiser), opened: "Blue only", at: 5).isEmpty)
        #expect(
            Self.hear(&again, Self.told("red", id: 7, key: organiser), opened: nil, at: 6)
                == [.ignored(.wordNotForThisTeam, topic: HuntTopic.told(hunt: hunt, team: "red", id: 7))])
        #expect(
            Self.hear(&again, Self.told("red", id: 8, key: organiser), opened: "bell\u{7}", at: 7)
                == [.ignored(.wordNotForThisTeam, topic: HuntTopic.told(hunt: hunt, team: "red", id: 8))])
        // Forged: the gate refuses it.
        #expect(
            EngineScheduleTests.ignored(
                Self.hear(&again, Self.told("red", id: 9, key: HuntFixture.key(0x7e)), opened: "Forged", at: 8))
                == [.unknownKey])
    }

    @Test func askingPutsTheQuestionInTheOutboxOnlyInAHunt() {
        let client = ClientID(3)
        var (engine, _) = EngineScheduleTests.engine(EngineScheduleTests.join(), [])
        #expect(
            engine.handle(.request(client, .ask(text: "Which bridge?"), F.now(1)))
                == [
                    .hunt(.ask(HuntQuestion(text: "Which bridge?"))),
                    .reply(
                        client,
                        .notes([
                            "the broker is away: the question waits in the outbox; it is sent when the broker is back"
                        ])),
                ])
        #expect(
            engine.handle(.request(client, .ask(text: "ring\u{7}"), F.now(2)))
                == [
                    .reply(
                        client, .failure("the question has control characters; write plain text (line breaks are fine)")
                    )
                ])
        var alone = Engine(gpsServer: "localhost:2947")
        #expect(
            alone.handle(.request(client, .ask(text: "Which bridge?"), F.now(1)))
                == [.reply(client, .failure("no hunt is joined; join one first (chest hunt join FILE)"))])
    }

    @Test func theBoardListsQuestionsAndKeepsThemAcrossAJournalReplay() throws {
        var live = BoardCore(hunt: HuntFixture.hunt(), answersHints: true)
        var lines: [BoardJournal.Line] = []
        var events: [BoardEvent] = []
        for (team, id, text, seconds) in [
            ("red", UInt64(1), "Which bridge?", 10.0), ("blue", 4, "Is the café open?", 20),
        ] {
            let effects = live.handle(
                .heard(
                    BoardCore.Heard(
                        topic: HuntTopic.ask(hunt: hunt, team: team, id: id),
                        envelope: BoardCoreTests.unique(Self.ask(team, id: id, text)),
                        at: F.t0.addingTimeInterval(seconds),
                        checks: BoardCore.Checks(signatureValid: true, claimedReader: nil, proof: .missing))))
            lines += BoardCoreTests.journal(effects)
            events += effects.compactMap { if case let .event(event) = $0 { event } else { nil } }
        }
        #expect(
            events == [
                .asked(team: "red", text: "Which bridge?", id: 1, receivedAt: F.t0.addingTimeInterval(10)),
                .asked(team: "blue", text: "Is the café open?", id: 4, receivedAt: F.t0.addingTimeInterval(20)),
            ])
        #expect(live.questions.map(\.team) == ["red", "blue"])
        #expect(live.latest.map(\.event) == events, "in the latest list")
        #expect(lines.count == 2)
        // A word told to one team, heard back by the board, is neither listed nor journalled.
        let told = live.handle(
            .heard(
                BoardCore.Heard(
                    topic: HuntTopic.told(hunt: hunt, team: "red", id: 9),
                    envelope: BoardCoreTests.unique(Self.told("red", id: 9)), at: F.t0.addingTimeInterval(30),
                    checks: BoardCore.Checks(signatureValid: true, claimedReader: nil, proof: .missing))))
        #expect(told.isEmpty)

        var restarted = BoardCore(hunt: HuntFixture.hunt(), answersHints: true)
        for line in lines {
            let payload = try #require(line.payload.flatMap { Data(base64Encoded: $0) })
            _ = restarted.handle(
                .replayed(
                    BoardCore.Heard(
                        topic: line.topic, envelope: try HuntEnvelope.decode(payload), at: line.at,
                        checks: BoardCore.Checks(signatureValid: true, claimedReader: nil, proof: .missing))))
        }
        #expect(restarted.questions == live.questions)
        #expect(
            restarted.questions
                == [
                    BoardCore.HeardQuestion(team: "red", text: "Which bridge?", at: F.t0.addingTimeInterval(10), id: 1),
                    BoardCore.HeardQuestion(
                        team: "blue", text: "Is the café open?", at: F.t0.addingTimeInterval(20), id: 4),
                ])
        // The broker hands the retained question again: a copy, not a second question.
        let again = restarted.handle(
            .heard(
                BoardCore.Heard(
                    topic: HuntTopic.ask(hunt: hunt, team: "red", id: 1),
                    envelope: BoardCoreTests.unique(Self.ask("red", id: 1, "Which bridge?")),
                    at: F.t0.addingTimeInterval(40),
                    checks: BoardCore.Checks(signatureValid: true, claimedReader: nil, proof: .missing))))
        #expect(again.isEmpty && restarted.questions.count == 2)
    }
}
