import Foundation
import Testing

@testable import ChestCore

/// The board's core (docs/ARCHITECTURE.md "The board's core"), in process, without a broker: the gate, copies, the
/// journal as effects and its replay, the hunt file read again, the journal bounded against junk (issue 33),
/// points, adjustments and hint answers (docs/HUNTS.md "Points", "Adjustments", "Hints").
@Suite struct BoardCoreTests {
    let hunt = HuntFixture.huntID
    func at(_ seconds: Double) -> Date { CoreFixture.t0.addingTimeInterval(seconds) }
    static let redReader = HuntFixture.key(0x30)
    static let blueReader = HuntFixture.key(0x31)

    /// The organiser's file with three messages: 1 (page 1 worth 3, with two hints costing 1 and 2), 2 (worth
    /// the default 1) and 3 (a guarded page worth 5).
    static func scoredHunt() -> HuntFile {
        var file = HuntFixture.hunt()
        file.messages = [
            CoreFixture.id(1): HuntMessage(
                title: "Clue 1",
                pages: [
                    .init(
                        key: HuntFixture.key(0x71), guarded: false, points: 3,
                        hints: [
                            .init(key: HuntFixture.key(0x81), cost: 1),
                            .init(key: HuntFixture.key(0x82), cost: 2, after: 600),
                        ])
                ]),
            CoreFixture.id(2): HuntMessage(title: "Clue 2", pages: [.init(key: HuntFixture.key(0x72), guarded: false)]),
            CoreFixture.id(3): HuntMessage(
                title: "Clue 3", pages: [.init(key: HuntFixture.key(0x73), guarded: true, points: 5)]),
        ]
        return file
    }

    /// An envelope with a signature of its own (the core tells copies by their signatures).
    static func unique(_ envelope: HuntEnvelope) -> HuntEnvelope {
        var signed = envelope
        var bytes = [UInt8](repeating: 0, count: 64)
        for (index, byte) in "\(envelope.sender)/\(envelope.kind.rawValue)/\(envelope.id)".utf8.enumerated() {
            bytes[index % 64] ^= byte
        }
        signed.signature = Data(bytes).base64EncodedString()
        return signed
    }

    func heard(
        _ envelope: HuntEnvelope?, topic: String, at seconds: Double, valid: Bool = true, reader: String? = nil,
        proof: HuntBoard.ProofCheck = .missing
    ) -> BoardCore.Heard {
        BoardCore.Heard(
            topic: topic, envelope: envelope.map(Self.unique), at: at(seconds),
            checks: BoardCore.Checks(signatureValid: valid, claimedReader: reader, proof: proof))
    }

    func status(_ team: String, id: UInt64, reader: String, at seconds: Double) -> BoardCore.Heard {
        var envelope = HuntFixture.statusEnvelope(team, id: id)
        envelope.status?.reader = reader
        envelope.status?.readerClaim = HuntFixture.key(0x50, count: 64)
        return heard(envelope, topic: HuntTopic.status(hunt: hunt, team: team), at: seconds, reader: reader)
    }

    func receipt(
        _ team: String, id: UInt64, message: UInt8, reader: String, at seconds: Double,
        proof: HuntBoard.ProofCheck = .proven
    ) -> BoardCore.Heard {
        var receipt = HuntFixture.receipt(message: message, openedAt: seconds - 1)
        receipt.reader = reader
        receipt.signature = HuntFixture.key(UInt8(0x60 + id) + (team == "red" ? 0 : 0x10), count: 64)
        return heard(
            HuntFixture.receiptEnvelope(team, id: id, receipt: receipt),
            topic: HuntTopic.receipt(hunt: hunt, team: team, id: id), at: seconds, proof: proof)
    }

    func adjust(_ team: String, _ points: Int, _ reason: String, id: UInt64, at seconds: Double, valid: Bool = true)
        -> BoardCore.Heard
    {
        heard(
            HuntFixture.signed(
                HuntEnvelope(
                    hunt: hunt, id: id, sent: at(seconds),
                    adjust: HuntAdjustment(team: team, points: points, reason: reason))),
            topic: HuntTopic.adjust(hunt: hunt, id: id), at: seconds, valid: valid)
    }

    func hintRequest(_ team: String, id: UInt64, message: UInt8 = 1, page: Int = 1, hint: Int, at seconds: Double)
        -> BoardCore.Heard
    {
        heard(
            HuntFixture.signed(
                HuntEnvelope(
                    hunt: hunt, sender: team, id: id, sent: at(seconds),
                    hintRequest: HuntHintRequest(message: CoreFixture.id(message), page: page, hint: hint))),
            topic: HuntTopic.hintRequest(hunt: hunt, team: team, id: id), at: seconds)
    }

    static func events(_ effects: [BoardCore.Effect]) -> [BoardEvent] {
        effects.compactMap { if case let .event(event) = $0 { event } else { nil } }
    }

    static func journal(_ effects: [BoardCore.Effect]) -> [BoardJournal.Line] {
        effects.compactMap { if case let .journal(line) = $0 { line } else { nil } }
    }

    static func answers(_ effects: [BoardCore.Effect]) -> [BoardCore.HintAnswer] {
        effects.compactMap { if case let .answerHint(answer) = $0 { answer } else { nil } }
    }

    static func reasons(_ effects: [BoardCore.Effect]) -> [String] {
        events(effects).compactMap { if case let .refused(reason, _, _) = $0 { reason } else { nil } }
    }

    @Test func theCoreDecidesTheGateCopiesAndWhatTheJournalKeeps() throws {
        var core = BoardCore(hunt: Self.scoredHunt(), answersHints: true)
        let first = status("red", id: 1, reader: Self.redReader, at: 1)
        let effects = core.handle(.heard(first))
        let line = try #require(Self.journal(effects).first)
        #expect(line.payload == first.envelope?.bytes.base64EncodedString() && line.at == at(1) && line.refused == nil)
        #expect(Self.events(effects).count == 1)
        #expect(core.handle(.heard(first)).isEmpty && core.copies == 1, "an exact copy says nothing new")
        // Forged, and not an envelope at all: shown and journalled as their refusal only.
        let forged = core.handle(
            .heard(
                heard(
                    HuntFixture.statusEnvelope("red", id: 2), topic: HuntTopic.status(hunt: hunt, team: "red"),
                    at: 2, valid: false)))
        #expect(Self.reasons(forged) == ["badSignature"])
        #expect(Self.journal(forged).map(\.refused) == ["badSignature"])
        let junk = core.handle(.heard(heard(nil, topic: "chest/\(hunt)/red/receipt/9", at: 3)))
        #expect(Self.reasons(junk) == ["malformed"] && Self.journal(junk).first?.payload == nil)
        #expect(core.gate.refused == [.badSignature: 1, .malformed: 1])
        #expect(core.refusals.count == 2 && core.board.teams[0].refusals == ["badSignature": 1, "malformed": 1])
    }

    @Test func aReplayedJournalRestoresTheBoardAndNeitherWritesNorAnswers() {
        var live = BoardCore(hunt: Self.scoredHunt(), answersHints: true)
        var lines: [BoardJournal.Line] = []
        for heard in [
            status("red", id: 1, reader: Self.redReader, at: 1),
            receipt("red", id: 1, message: 1, reader: Self.redReader, at: 2),
            hintRequest("red", id: 2, hint: 1, at: 3), adjust("red", -2, "late", id: 100, at: 4),
            heard(nil, topic: "chest/\(hunt)/red/status", at: 5),
        ] {
            lines += Self.journal(live.handle(.heard(heard)))
        }
        #expect(lines.count == 5)
        var restarted = BoardCore(hunt: Self.scoredHunt(), answersHints: true)
        var effects: [BoardCore.Effect] = []
        for line in lines {
            if let payload = line.payload.flatMap({ Data(base64Encoded: $0) }) {
                let envelope = try? HuntEnvelope.decode(payload)
                let reader = envelope?.kind == .status ? Self.redReader : nil
                let proof: HuntBoard.ProofCheck = envelope?.kind == .receipt ? .proven : .missing
                effects += restarted.handle(
                    .replayed(
                        BoardCore.Heard(
                            topic: line.topic, envelope: envelope, at: line.at,
                            checks: .init(signatureValid: true, claimedReader: reader, proof: proof))))
            } else {
                effects += restarted.handle(.replayedLine(line))
            }
        }
        #expect(Self.journal(effects).isEmpty && Self.answers(effects).isEmpty)
        #expect(restarted.board.teams == live.board.teams)
        #expect(restarted.board.teams[0].points == 3 - 1 - 2)
        #expect(restarted.gate.refused == live.gate.refused)
        // What the broker hands a restarted board again is a copy of what the journal had.
        let again = receipt("red", id: 1, message: 1, reader: Self.redReader, at: 2)
        #expect(restarted.handle(.heard(again)).isEmpty && restarted.copies == 1)
    }

    @Test func aMessageComposedDuringTheHuntMakesTheBoardReadTheHuntFileAgain() throws {
        var early = Self.scoredHunt()
        early.messages = [:]
        var core = BoardCore(hunt: early, answersHints: true)
        _ = core.handle(.heard(status("blue", id: 1, reader: Self.blueReader, at: 1)))
        let heard = receipt("blue", id: 1, message: 1, reader: Self.blueReader, at: 2, proof: .unknownMessage)
        let effects = core.handle(.heard(heard))
        #expect(Self.journal(effects).count == 1, "journalled as it passed the gate")
        guard case let .rereadHunt(pending, replay)? = effects.last else {
            Issue.record("no re-read: \(effects)")
            return
        }
        #expect(!replay && Self.events(effects).isEmpty)
        let read = core.handle(.huntRead(Self.scoredHunt(), at: pending.at))
        #expect(
            Self.events(read).isEmpty
                && Self.journal(read).allSatisfy { $0.had?.isEmpty == false && $0.at == pending.at })
        var checked = pending
        checked.checks.proof = .proven
        let credited = Self.events(core.handle(.rechecked(checked, replay: false)))
        guard case let .unlock(team, _, title, _, _, _, _, proof, _)? = credited.first else {
            Issue.record("not credited: \(credited)")
            return
        }
        #expect(team == "blue" && title == "Clue 1" && proof == "proven")
        #expect(core.board.teams[1].points == 3, "the page's points, from the file read again")
        // Another hunt's file is not taken for this one's.
        var other = Self.scoredHunt()
        other.id = HuntFixture.otherHuntID
        other.messages = [:]
        _ = core.handle(.huntRead(other, at: pending.at))
        #expect(core.hunt.messages?.count == 3)
    }

    /// Issue 33: 22,000 junk messages grew the journal by 6.5 MB. Now the first refusals are journalled one a line,
    /// then as counts at most once a minute, and a restart still counts every one.
    @Test func junkGrowsTheJournalByAtMostOneLineAMinute() {
        var core = BoardCore(hunt: Self.scoredHunt(), answersHints: true)
        var lines: [BoardJournal.Line] = []
        let total = 22_000
        for index in 0..<total {
            // Ten minutes of junk: on red's topic, on a topic of no team, and forged statuses.
            let seconds = Double(index) * 600 / Double(total)
            let heard =
                switch index % 3 {
                case 0: self.heard(nil, topic: "chest/\(hunt)/red/receipt/\(index + 1)", at: seconds)
                case 1: self.heard(nil, topic: "chest/\(hunt)/\(String(repeating: "x", count: 400))", at: seconds)
                default:
                    self.heard(
                        HuntFixture.statusEnvelope("blue", id: UInt64(index)),
                        topic: HuntTopic.status(hunt: hunt, team: "blue"),
                        at: seconds, valid: false)
                }
            lines += Self.journal(core.handle(.heard(heard)))
        }
        lines += Self.journal(core.handle(.stopping(at: at(601))))
        let bytes = lines.reduce(0) { $0 + $1.bytes.count }
        #expect(lines.count <= BoardJournal.refusalLines + 12, "\(lines.count) lines")
        #expect(bytes < 60_000, "\(bytes) bytes for \(total) junk messages")
        #expect(core.gate.refused.values.reduce(0, +) == total)
        #expect(core.refusals.count == BoardCore.listed, "the screen still shows the latest")

        var restarted = BoardCore(hunt: Self.scoredHunt(), answersHints: true)
        for line in lines { _ = restarted.handle(.replayedLine(line)) }
        #expect(restarted.gate.refused == core.gate.refused)
        #expect(restarted.board.teams.map(\.refusals) == core.board.teams.map(\.refusals))
        // Once stopped, the next junk after a restart waits for its minute again: still bounded.
        var more = 0
        for index in 0..<1_000 {
            more += Self.journal(restarted.handle(.heard(heard(nil, topic: "x", at: 602 + Double(index) / 100)))).count
        }
        #expect(more <= 1, "\(more)")
    }

    /// docs/HUNTS.md "Points": a proven page's points, a guarded page shown apart with none, hints subtracted,
    /// adjustments added; ranked by points, then by when the board heard the last point.
    @Test func teamsAreRankedByPointsThenByWhenTheBoardHeardTheLastPoint() throws {
        var core = BoardCore(hunt: Self.scoredHunt(), answersHints: true)
        for heard in [
            status("red", id: 1, reader: Self.redReader, at: 1), status("blue", id: 1, reader: Self.blueReader, at: 1),
            receipt("red", id: 1, message: 1, reader: Self.redReader, at: 10),  // red 3
            receipt("blue", id: 1, message: 2, reader: Self.blueReader, at: 5),  // blue 1
            receipt("blue", id: 2, message: 3, reader: Self.blueReader, at: 6, proof: .guarded),
        ] {  // guarded: 0
            _ = core.handle(.heard(heard))
        }
        #expect(core.board.leaderboard().map(\.name) == ["red", "blue", "green"])
        let bonus = core.handle(.heard(adjust("blue", 2, "helped a lost walker", id: 1_000, at: 20)))
        #expect(
            Self.events(bonus).first
                == .adjusted(team: "blue", points: 2, reason: "helped a lost walker", receivedAt: at(20)))
        #expect(
            Self.events(bonus).last
                == .team(
                    name: "blue", online: true, lastHeard: at(6), trust: .hardware, pages: 2,
                    points: .init(points: 3, hints: 0, hintCost: 0, adjustments: 2)))
        // 3 each: red's last point came at 10, blue's at 20.
        #expect(core.board.leaderboard().map(\.name) == ["red", "blue", "green"])
        let blue = core.board.teams[1]
        #expect(blue.pages.map(\.points) == [1, 0] && blue.pages.map(\.proven) == [true, false])
        _ = core.handle(.heard(hintRequest("red", id: 2, hint: 1, at: 30)))
        #expect(core.board.leaderboard().map(\.name) == ["blue", "red", "green"], "red paid 1 for a hint")
        _ = core.handle(.heard(adjust("blue", -5, "crossed a field of crops", id: 1_001, at: 40)))
        let ranked = core.board.leaderboard()
        #expect(
            ranked.map(\.name) == ["red", "green", "blue"] && ranked.map(\.points) == [2, 0, -2],
            "below nothing is below 0")
        #expect(ranked.map(\.isRanked) == [true, false, true])
        let rows: [String] = core.board.leaderboardText().split(separator: "\n").map { row in
            row.split(separator: " ").prefix(7).joined(separator: " ")
        }
        #expect(
            rows == [
                "# TEAM POINTS PAGES GUARDED HINTS ADJUSTED", "1 red 2 1 0 -1 0", "- green 0 0 0 0 0",
                "2 blue -2 2 1 0 -3",
            ], "blue is the second ranked team, not third below an unranked one")
        #expect(HuntBoard.ranks(ranked) == [1, nil, 2])
        let line = Self.events(core.handle(.heard(adjust("red", 1, "x", id: 1_002, at: 50)))).last?.line ?? ""
        #expect(
            line.contains(#""adjustments":1"#) && line.contains(#""hintCost":1"#) && line.contains(#""hints":1"#)
                && line.contains(#""points":3"#) && line.contains(#""pages":1"#), "\(line)")
    }

    @Test func adjustmentsNotSignedByTheOrganiserAreRefusedAndCounted() {
        var core = BoardCore(hunt: Self.scoredHunt(), answersHints: true)
        #expect(
            Self.reasons(core.handle(.heard(adjust("red", 50, "forged", id: 1, at: 1, valid: false)))) == [
                "badSignature"
            ])
        // Signed with red's own team key, on the organiser's topic.
        let byRed = heard(
            HuntFixture.signed(
                HuntEnvelope(
                    hunt: hunt, id: 2, sent: at(2), adjust: HuntAdjustment(team: "red", points: 50, reason: "me")),
                key: HuntFixture.hunt().team(named: TeamName("red")!)?.publicKey),
            topic: HuntTopic.adjust(hunt: hunt, id: 2), at: 2)
        #expect(Self.reasons(core.handle(.heard(byRed))) == ["unknownKey"])
        // The organiser's own adjustment under another id than its topic's.
        let moved = heard(
            HuntFixture.signed(
                HuntEnvelope(
                    hunt: hunt, id: 3, sent: at(3), adjust: HuntAdjustment(team: "red", points: 50, reason: "x"))),
            topic: HuntTopic.adjust(hunt: hunt, id: 4), at: 3)
        #expect(Self.reasons(core.handle(.heard(moved))) == ["wrongTopic"])
        #expect(Self.reasons(core.handle(.heard(adjust("purple", 5, "not a team", id: 5, at: 5)))) == ["unknownTeam"])
        #expect(core.board.teams.allSatisfy { $0.points == 0 && $0.adjustments.isEmpty })
        #expect(core.gate.refused == [.badSignature: 1, .unknownKey: 1, .wrongTopic: 1])
        // The wire: a team cannot send an adjustment at all.
        var teamSent = HuntFixture.signed(
            HuntEnvelope(hunt: hunt, id: 6, sent: at(6), adjust: HuntAdjustment(team: "red", points: 1, reason: "x")))
        teamSent.sender = "red"
        #expect(throws: HuntError.self) { try HuntEnvelope.decode(teamSent.bytes) }
    }

    /// docs/HUNTS.md "Hints": the board answers a team's request with the hint's key for its reader, charges it once
    /// per hint, and answers nothing (refused, counted) for a hint that does not exist or a team whose reader it
    /// does not know yet.
    @Test func hintRequestsAreAnsweredAndChargedOnce() throws {
        var core = BoardCore(hunt: Self.scoredHunt(), answersHints: true)
        let early = core.handle(.heard(hintRequest("red", id: 1, hint: 1, at: 1)))
        #expect(Self.reasons(early) == ["noReader"] && Self.answers(early).isEmpty)
        _ = core.handle(.heard(status("red", id: 1, reader: Self.redReader, at: 2)))
        let asked = core.handle(.heard(hintRequest("red", id: 2, hint: 2, at: 3)))
        #expect(
            Self.answers(asked) == [
                BoardCore.HintAnswer(
                    team: "red", message: CoreFixture.id(1), page: 1, hint: 2, cost: 2,
                    reader: Self.redReader, key: HuntFixture.key(0x82))
            ])
        #expect(
            Self.events(asked).first
                == .hint(
                    team: "red", message: CoreFixture.id(1).rawValue, page: 1, hint: 2, cost: 2, charged: true,
                    receivedAt: at(3)))
        #expect(core.board.teams[0].points == -2)
        let again = core.handle(.heard(hintRequest("red", id: 3, hint: 2, at: 4)))
        #expect(Self.answers(again).count == 1, "asked again, answered again")
        #expect(core.board.teams[0].points == -2 && core.board.teams[0].hints.count == 1, "never charged twice")
        for (id, message, page, hint) in [(UInt64(4), UInt8(1), 1, 3), (5, 1, 2, 1), (6, 2, 1, 1)] {
            let none = core.handle(.heard(hintRequest("red", id: id, message: message, page: page, hint: hint, at: 5)))
            #expect(Self.reasons(none) == ["noSuchHint"] && Self.answers(none).isEmpty)
        }
        #expect(core.board.teams[0].refusals == ["noReader": 1, "noSuchHint": 3])
        // The same request again (a QoS 1 copy) is not answered twice; another team's topic is refused.
        #expect(core.handle(.heard(hintRequest("red", id: 3, hint: 2, at: 6))).isEmpty)
        let posing = heard(
            HuntFixture.signed(
                HuntEnvelope(
                    hunt: hunt, sender: "red", id: 9, sent: at(7),
                    hintRequest: HuntHintRequest(message: CoreFixture.id(1), page: 1, hint: 1))),
            topic: HuntTopic.hintRequest(hunt: hunt, team: "blue", id: 9), at: 7)
        #expect(Self.reasons(core.handle(.heard(posing))) == ["wrongTopic"])
        // Its answer, heard back from the broker, changes nothing.
        let answer = heard(
            HuntFixture.signed(
                HuntEnvelope(
                    hunt: hunt, id: 1, sent: at(8),
                    hint: HuntHint(
                        team: "red", message: CoreFixture.id(1).rawValue, page: 1, hint: 2,
                        cost: 2, sealed: HuntFixture.key(0x99, count: 80)))),
            topic: HuntTopic.hint(
                hunt: hunt, team: "red", hintID: HuntTopic.hintID(message: CoreFixture.id(1).rawValue, page: 1, hint: 2)
            ),
            at: 8)
        #expect(core.handle(.heard(answer)).isEmpty && core.handle(.heard(answer)).isEmpty)

        // A board that cannot sign as the organiser answers nothing, and says why.
        var elsewhere = BoardCore(hunt: Self.scoredHunt(), answersHints: false)
        _ = elsewhere.handle(.heard(status("red", id: 1, reader: Self.redReader, at: 1)))
        let unsigned = elsewhere.handle(.heard(hintRequest("red", id: 2, hint: 1, at: 2)))
        #expect(
            Self.reasons(unsigned) == ["cannotAnswer"] && Self.answers(unsigned).isEmpty
                && elsewhere.board.teams[0].points == 0)
    }

    /// The game's kinds on the wire: each from its own sender, with fields the board can show.
    @Test func theNewKindsRoundTripAndMalformedOnesAreRefused() throws {
        let message = CoreFixture.id(1)
        let request = HuntFixture.signed(
            HuntEnvelope(
                hunt: hunt, sender: "red", id: 4, sent: at(0),
                hintRequest: HuntHintRequest(message: message, page: 1, hint: 1)))
        let hint = HuntFixture.signed(
            HuntEnvelope(
                hunt: hunt, id: 5, sent: at(0),
                hint: HuntHint(
                    team: "red", message: message.rawValue, page: 1,
                    hint: 1, cost: 2, sealed: HuntFixture.key(0x5a, count: HuntHint.sealedBytes))))
        let adjust = HuntFixture.signed(
            HuntEnvelope(
                hunt: hunt, id: 6, sent: at(0), adjust: HuntAdjustment(team: "red", points: -3, reason: "late")))
        for envelope in [request, hint, adjust] {
            #expect(try HuntEnvelope.decode(envelope.bytes) == envelope)
        }
        let wrong: [(HuntEnvelope, (inout HuntEnvelope) -> Void)] = [
            (request, { $0.sender = HuntEnvelope.organiserSender }),
            (request, { $0.hintRequest?.page = 0 }), (request, { $0.hintRequest?.hint = 0 }),
            (hint, { $0.sender = "red" }), (hint, { $0.hint?.team = "red/+" }), (hint, { $0.hint?.sealed = "" }),
            (hint, { $0.hint?.sealed = HuntFixture.key(0x5a, count: 32) }), (hint, { $0.hint?.cost = -1 }),
            (adjust, { $0.adjust?.points = 0 }), (adjust, { $0.adjust?.points = HuntAdjustment.limit + 1 }),
            (adjust, { $0.adjust?.reason = "" }), (adjust, { $0.adjust?.reason = "a\u{1B}[2Jb" }),
            (adjust, { $0.adjust?.reason = String(repeating: "x", count: 201) }),
            (adjust, { $0.adjust?.team = "organiser" }),
        ]
        for (index, (envelope, change)) in wrong.enumerated() {
            var changed = envelope
            change(&changed)
            #expect(throws: HuntError.self, "case \(index)") { try HuntEnvelope.decode(changed.bytes) }
        }
        // A request's message that is not a message ID cannot be made; on the wire it is refused in the same sentence as
        // a page or hint of 0.
        let notAnID = String(decoding: request.bytes, as: UTF8.self).replacingOccurrences(
            of: message.rawValue, with: "not an id")
        #expect(throws: HuntError(HuntHintRequest.malformed)) { try HuntEnvelope.decode(Data(notAnID.utf8)) }
        var noPage = request
        noPage.hintRequest?.page = 0
        #expect(throws: HuntError(HuntHintRequest.malformed)) { try HuntEnvelope.decode(noPage.bytes) }
    }

    @Test func theNewTopicsParse() {
        #expect(HuntTopic.parse("chest/\(hunt)/red/hint/7", hunt: hunt) == .hintRequest(team: "red", id: 7))
        #expect(
            HuntTopic.parse("chest/\(hunt)/organiser/hint/red/0123456789abcdef01234567-1-2", hunt: hunt)
                == .hint(team: "red", hintID: "0123456789abcdef01234567-1-2"))
        #expect(
            HuntTopic.hint(hunt: hunt, team: "red", hintID: HuntTopic.hintID(message: hunt.rawValue, page: 1, hint: 2))
                == "chest/\(hunt)/organiser/hint/red/0123456789abcdef01234567-1-2")
        #expect(HuntTopic.parse("chest/\(hunt)/organiser/adjust/12", hunt: hunt) == .adjust(id: 12))
        for topic in [
            "chest/\(hunt)/organiser/hint/7", "chest/\(hunt)/organiser/hint/red/a+b",
            "chest/\(hunt)/organiser/adjust/012", "chest/\(hunt)/red/hint/0",
            "chest/\(hunt)/organiser/receipt/1", "chest/\(hunt)/organiser/hint/organiser/1",
            "chest/\(hunt)/red/adjust/1",
        ] {
            #expect(HuntTopic.parse(topic, hunt: hunt) == nil, "\(topic)")
        }
        #expect(HuntTopic.parse("chest/\(hunt)/red/receipt/3", hunt: hunt) == .receipt(team: "red", id: 3))
        #expect(HuntTopic.parse("chest/\(hunt)/red/status", hunt: hunt) == .status(team: "red"))
    }
}
