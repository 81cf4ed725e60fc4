import Foundation
import Testing

@testable import ChestCore

private typealias F = CoreFixture

/// Missions (docs/HUNTS.md "Missions"): a photo known by its bytes, the submit and verdict envelopes, topics and gate,
/// the board taking, replacing and judging submissions and keeping them across a journal replay, and the team's
/// engine putting a submission in the outbox and telling a verdict.
@Suite struct BoardMissionTests {
    let hunt = HuntFixture.huntID
    static let digestRed = String(repeating: "a", count: 64)
    static let digestRed2 = String(repeating: "b", count: 64)
    static let digestBlue = String(repeating: "c", count: 64)

    /// PNG's signature and an IHDR chunk of `width` × `height`.
    static func png(_ width: UInt32, _ height: UInt32) -> [UInt8] {
        func be(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + Array("IHDR".utf8) + be(width) + be(height)
            + [8, 2, 0, 0, 0] + [0, 0, 0, 0]
    }

    /// JPEG's SOI, an APP0 segment and a baseline start of frame of `width` × `height`.
    static func jpeg(_ width: UInt16, _ height: UInt16) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
            + [
                0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xff), UInt8(width >> 8),
                UInt8(width & 0xff), 3,
            ] + [UInt8](repeating: 1, count: 9)
    }

    /// An extended WebP (VP8X) of `width` × `height`.
    static func webp(_ width: Int, _ height: Int) -> [UInt8] {
        func le24(_ value: Int) -> [UInt8] { [0, 8, 16].map { UInt8(truncatingIfNeeded: value >> $0) } }
        return Array("RIFF".utf8) + [30, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0] + [0, 0, 0, 0]
            + le24(width - 1) + le24(height - 1) + [0, 0]
    }

    @Test func aPhotoIsKnownByItsBytesAndItsHeaderWithinBounds() throws {
        #expect(try MissionPhoto.check(Self.png(640, 480)).get() == MissionPhoto(kind: .png, width: 640, height: 480))
        #expect(
            try MissionPhoto.check(Self.jpeg(4000, 3000)).get() == MissionPhoto(kind: .jpeg, width: 4000, height: 3000))
        #expect(
            try MissionPhoto.check(Self.webp(1024, 768)).get() == MissionPhoto(kind: .webp, width: 1024, height: 768))
        let svg = Array(
            #"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#.utf8)
        #expect(throws: HuntError("it is not a PNG, JPEG or WebP photo (it is an SVG drawing)")) {
            try MissionPhoto.check(svg).get()
        }
        #expect(throws: HuntError("it is not a PNG, JPEG or WebP photo (it is an HTML page)")) {
            try MissionPhoto.check(Array("<!DOCTYPE html><html><body>hi</body></html>".utf8)).get()
        }
        #expect(
            throws: HuntError(
                "the png photo claims 100000 × 100000 pixels; at most 16384 a side and 50 megapixels are taken")
        ) { try MissionPhoto.check(Self.png(100_000, 100_000)).get() }
        #expect(throws: (any Error).self) { try MissionPhoto.check(Self.png(0, 10)).get() }
        #expect(throws: (any Error).self) { try MissionPhoto.check(Self.jpeg(9000, 9000)).get() }
        var big = Self.png(10, 10)
        big += [UInt8](repeating: 0, count: HuntSubmission.maximumPhotoBytes + 1 - big.count)
        #expect(throws: HuntError("the photo is 8 MiB; at most 8 MiB are sent: scale it down first")) {
            try MissionPhoto.check(big).get()
        }
        // What a sealed box opened to is checked as its kind says.
        #expect(throws: HuntError("the photo is png, not jpeg as it claims")) {
            try HuntSubmission.check(opened: Self.png(10, 10), kind: .jpeg).get()
        }
        #expect(try HuntSubmission.check(opened: Array("Sixty-three".utf8), kind: .text).get() == "Sixty-three")
        #expect(throws: (any Error).self) { try HuntSubmission.check(opened: svg, kind: .png).get() }
    }

    @Test func aTextIsOneTo2000PlainCharacters() {
        #expect(HuntSubmission.problem(text: "The guide said 1642.\nAnd more.\tTabbed.") == nil)
        #expect(HuntSubmission.problem(text: " \n") == "the text is empty; write what the mission asks for")
        #expect(HuntSubmission.problem(text: String(repeating: "x", count: 2000)) == nil)
        #expect(HuntSubmission.problem(text: String(repeating: "x", count: 2001)) != nil)
        #expect(
            HuntSubmission.problem(text: "ring\u{1B}[2Jbell")
                == "the text has control characters; write plain text (line breaks are fine)")
    }

    static func submit(
        _ team: String, id: UInt64, page: Int = 2, kind: HuntSubmission.Kind = .png, sealed: Int = 200
    ) -> HuntEnvelope {
        BoardCoreTests.unique(
            HuntFixture.signed(
                HuntEnvelope(
                    hunt: HuntFixture.huntID, sender: team, id: id, sent: F.t0,
                    submit: HuntSubmission(
                        message: F.id(5), page: page, kind: kind, sealed: HuntFixture.key(0x61, count: sealed)))))
    }

    static func verdict(
        _ team: String, id: UInt64, submission: UInt64, digest: String, accepted: Bool, points: Int = 0,
        reason: String = ""
    ) -> HuntEnvelope {
        BoardCoreTests.unique(
            HuntFixture.signed(
                HuntEnvelope(
                    hunt: HuntFixture.huntID, id: id, sent: F.t0,
                    verdict: HuntVerdict(
                        team: team, message: F.id(5), page: 2, submission: submission, digest: digest,
                        accepted: accepted, points: points, reason: reason))))
    }

    @Test func envelopesTopicsAndTheGate() throws {
        // A photo's envelope may be 12 MiB; any other message over 64 KiB is refused before it is read further.
        let large = Self.submit("red", id: 1, sealed: 3 << 20)
        #expect(large.bytes.count > HuntEnvelope.sizeLimit)
        #expect(try HuntEnvelope.decode(large.bytes) == large)
        let said = HuntEnvelope(
            hunt: hunt, id: 1, sent: F.t0, said: HuntSaid(text: String(repeating: "x", count: 400)))
        var padded = said.bytes
        padded.append(Data(repeating: 0x20, count: HuntEnvelope.sizeLimit))
        #expect(throws: HuntError("not a chest hunt message: larger than 65536 bytes")) {
            try HuntEnvelope.decode(padded)
        }
        #expect(throws: HuntError("the submission's page or sealed content is malformed")) {
            try HuntEnvelope.decode(Self.submit("red", id: 1, kind: .text, sealed: 9000).bytes)
        }
        var fromOrganiser = Self.submit("red", id: 1)
        fromOrganiser.sender = HuntEnvelope.organiserSender
        #expect(throws: HuntError("the organiser submits nothing")) { try HuntEnvelope.decode(fromOrganiser.bytes) }
        #expect(throws: HuntError("the verdict's team, page, points, digest or reason is malformed")) {
            try HuntEnvelope.decode(
                Self.verdict("red", id: 9, submission: 1, digest: Self.digestRed, accepted: false).bytes)
        }

        let topic = HuntTopic.submit(hunt: hunt, team: "red", id: 1)
        #expect(HuntTopic.parse(topic, hunt: hunt) == .submit(team: "red", id: 1))
        #expect(HuntTopic.teamLevel(topic, under: HuntTopic.prefix(hunt: hunt)) == "red", "rated as the team's")
        let verdictTopic = HuntTopic.verdict(hunt: hunt, team: "red", id: 9)
        #expect(HuntTopic.parse(verdictTopic, hunt: hunt) == .verdict(team: "red", id: 9))
        var gate = HuntGate(hunt: HuntFixture.hunt())
        let submission = Self.submit("red", id: 1)
        #expect(gate.admit(submission, topic: topic, signatureValid: true) == .accepted)
        #expect(gate.admit(submission, topic: topic, signatureValid: true) == .refused(.replayed))
        #expect(
            gate.admit(
                Self.submit("red", id: 2), topic: HuntTopic.submit(hunt: hunt, team: "blue", id: 2),
                signatureValid: true) == .refused(.wrongTopic))
        let verdict = Self.verdict("red", id: 9, submission: 1, digest: Self.digestRed, accepted: true, points: 5)
        #expect(gate.admit(verdict, topic: verdictTopic, signatureValid: true) == .accepted)
        #expect(gate.admit(verdict, topic: verdictTopic, signatureValid: true) == .accepted, "retained, again")
        #expect(
            gate.admit(
                Self.verdict("red", id: 9, submission: 1, digest: Self.digestRed, accepted: true, points: 1),
                topic: verdictTopic, signatureValid: true) == .refused(.replayed))
        #expect(
            gate.admit(verdict, topic: HuntTopic.verdict(hunt: hunt, team: "blue", id: 9), signatureValid: true)
                == .refused(.wrongTopic))
    }

    /// The fixture's hunt with message 5: page 1 a plain page worth 2, page 2 a mission worth at most 5.
    static func missionHunt() -> HuntFile {
        var hunt = HuntFixture.hunt()
        var mission = HuntMessage.PageKey(key: HuntFixture.key(0x72), guarded: false, points: 5)
        mission.mission = true
        hunt.messages = [
            F.id(5): HuntMessage(
                title: "Fountain", pages: [.init(key: HuntFixture.key(0x71), guarded: false, points: 2), mission])
        ]
        return hunt
    }

    static func heard(
        _ envelope: HuntEnvelope, at seconds: Double, digest: String? = nil, text: String? = nil,
        photo: [UInt8]? = nil, problem: String? = nil
    ) -> BoardCore.Input {
        let topic =
            envelope.sender == HuntEnvelope.organiserSender
            ? HuntTopic.verdict(hunt: HuntFixture.huntID, team: "x", id: envelope.id)
            : HuntTopic.submit(hunt: HuntFixture.huntID, team: envelope.sender, id: envelope.id)
        var checks = BoardCore.Checks(signatureValid: true)
        if let digest {
            checks.opened = BoardCore.OpenedSubmission(digest: digest, text: text, photo: photo, problem: problem)
        }
        if case let .verdict(verdict) = envelope.body {
            return .heard(
                BoardCore.Heard(
                    topic: HuntTopic.verdict(hunt: HuntFixture.huntID, team: verdict.team, id: envelope.id),
                    envelope: envelope, at: F.t0.addingTimeInterval(seconds), checks: checks))
        }
        return .heard(
            BoardCore.Heard(topic: topic, envelope: envelope, at: F.t0.addingTimeInterval(seconds), checks: checks))
    }

    static func events(_ effects: [BoardCore.Effect]) -> [BoardEvent] {
        effects.compactMap { if case let .event(event) = $0 { event } else { nil } }
    }

    @Test func theBoardTakesReplacesAndJudgesSubmissionsAndAReplayKeepsThem() throws {
        var live = BoardCore(hunt: Self.missionHunt(), answersHints: true)
        var effects: [BoardCore.Effect] = []
        let photo = Self.png(640, 480)
        effects += live.handle(Self.heard(Self.submit("red", id: 1), at: 10, digest: Self.digestRed, photo: photo))
        #expect(
            effects.contains {
                if case let .keepPhoto(name, bytes) = $0 {
                    name == Self.digestRed + ".png" && bytes == photo
                } else {
                    false
                }
            })
        effects += live.handle(
            Self.heard(Self.submit("blue", id: 4, kind: .text), at: 20, digest: Self.digestBlue, text: "1642"))
        // A later photo from red replaces the one not yet judged; the first photo is removed.
        let replaced = live.handle(Self.heard(Self.submit("red", id: 2), at: 30, digest: Self.digestRed2, photo: photo))
        effects += replaced
        #expect(replaced.contains { if case .dropPhoto(Self.digestRed + ".png") = $0 { true } else { false } })
        #expect(live.waiting.map(\.team) == ["blue", "red"], "oldest first")
        #expect(live.waiting.map(\.id) == [4, 2])
        // Nothing sealed in the journal: what the board made of each, its photo beside the journal.
        let lines = BoardCoreTests.journal(effects)
        #expect(lines.allSatisfy { $0.payload == nil } && lines.compactMap(\.submitted).count == 3)

        // Refused: a page that is no mission, a box that did not open or is not what it claims.
        var page1 = Self.submit("green", id: 1, page: 1)
        page1 = BoardCoreTests.unique(page1)
        #expect(
            BoardCoreTests.reasons(live.handle(Self.heard(page1, at: 31, digest: Self.digestRed, photo: photo)))
                .contains("notMission"))
        #expect(
            BoardCoreTests.reasons(
                live.handle(Self.heard(Self.submit("green", id: 2), at: 32, digest: Self.digestRed, problem: "svg"))
            )
            .contains("unreadable"))
        #expect(
            BoardCoreTests.reasons(live.handle(Self.heard(Self.submit("green", id: 3), at: 33))).contains("unreadable"))

        // The organiser accepts red's for 5 (asked 7: bounded by the page's) and rejects blue's.
        var verdicts: [BoardJournal.Line] = []
        let accept = live.handle(
            Self.heard(
                Self.verdict(
                    "red", id: 100, submission: 2, digest: Self.digestRed2, accepted: true, points: 7,
                    reason: "all five"), at: 40))
        verdicts += BoardCoreTests.journal(accept)
        #expect(
            Self.events(accept).first
                == .judged(
                    team: "red", message: F.id(5), page: 2, accepted: true, points: 5, reason: "all five",
                    receivedAt: F.t0.addingTimeInterval(40)))
        let reject = live.handle(
            Self.heard(
                Self.verdict(
                    "blue", id: 101, submission: 4, digest: Self.digestBlue, accepted: false, reason: "wrong year"),
                at: 50))
        verdicts += BoardCoreTests.journal(reject)
        #expect(live.board.teams.first { $0.name == "red" }?.points == 5)
        #expect(live.board.teams.first { $0.name == "red" }?.missions.map(\.submission) == [2])
        #expect(live.board.teams.first { $0.name == "blue" }?.points == 0)
        #expect(live.waiting.isEmpty)
        #expect(
            live.latest.map(\.event).contains { if case .judged(_, _, _, true, 5, _, _) = $0 { true } else { false } })
        // Judged once: red's next submission is refused; blue may submit again after its rejection.
        #expect(
            BoardCoreTests.reasons(
                live.handle(Self.heard(Self.submit("red", id: 3), at: 60, digest: Self.digestRed, photo: photo))
            )
            .contains("judged"))
        let again = live.handle(
            Self.heard(Self.submit("blue", id: 5, kind: .text), at: 70, digest: Self.digestBlue, text: "1643"))
        #expect(live.waiting.map(\.id) == [5])
        // A second verdict on red's page changes nothing.
        _ = live.handle(
            Self.heard(
                Self.verdict("red", id: 102, submission: 2, digest: Self.digestRed2, accepted: true, points: 5),
                at: 80))
        #expect(live.board.teams.first { $0.name == "red" }?.points == 5)

        // Restarted: the journal's lines, in order, give the same submissions and points.
        let all = BoardCoreTests.journal(effects) + verdicts + BoardCoreTests.journal(again)
        var restarted = BoardCore(hunt: Self.missionHunt(), answersHints: true)
        for line in all.sorted(by: { $0.at < $1.at }) {
            if let payload = line.payload.flatMap({ Data(base64Encoded: $0) }) {
                _ = restarted.handle(
                    .replayed(
                        BoardCore.Heard(
                            topic: line.topic, envelope: try HuntEnvelope.decode(payload), at: line.at,
                            checks: BoardCore.Checks(signatureValid: true))))
            } else {
                #expect(
                    restarted.handle(.replayedLine(line)).allSatisfy {
                        if case .event = $0 { true } else { false }
                    }, "a replay writes nothing")
            }
        }
        #expect(restarted.submissions == live.submissions)
        #expect(restarted.board.teams.map(\.points) == live.board.teams.map(\.points))
        // The broker hands red's retained submission again: a copy, nothing new.
        #expect(
            restarted.handle(Self.heard(Self.submit("red", id: 2), at: 90, digest: Self.digestRed2, photo: photo))
                .isEmpty)
    }

    @Test func aVerdictHeardBeforeItsSubmissionWaitsForIt() {
        var board = BoardCore(hunt: Self.missionHunt(), answersHints: true)
        #expect(
            board.handle(
                Self.heard(
                    Self.verdict("red", id: 100, submission: 1, digest: Self.digestRed, accepted: true, points: 3),
                    at: 1)
            ).allSatisfy { if case .journal = $0 { true } else { false } })
        let effects = board.handle(
            Self.heard(Self.submit("red", id: 1), at: 2, digest: Self.digestRed, photo: Self.png(2, 2)))
        #expect(Self.events(effects).contains { if case .judged(_, _, _, true, 3, _, _) = $0 { true } else { false } })
        #expect(board.board.teams.first { $0.name == "red" }?.points == 3)
    }

    @Test func theTeamsEngineSubmitsThroughTheOutboxAndTellsTheVerdict() {
        let client = ClientID(3)
        let message = F.message(5, title: "Fountain", pages: [Page(text: "a"), Page(text: "b")])
        var (engine, _) = EngineScheduleTests.engine(EngineScheduleTests.join(), [F.stored(message)])
        #expect(
            engine.handle(.request(client, .submit(id: "05", page: 2, text: "1642", path: nil), F.now(1)))
                == [
                    .hunt(.submit(message: F.id(5), page: 2, content: .text("1642"))),
                    .reply(
                        client,
                        .notes([
                            "the broker is away: the submission waits in the outbox; it is sent when the broker is back"
                        ])),
                ])
        #expect(
            engine.handle(.request(client, .submit(id: "05", page: 3, text: nil, path: "/tmp/a.png"), F.now(2)))
                == [.reply(client, .failure("05ababab \"Fountain\" has 2 pages, not 3"))])
        #expect(
            engine.handle(.request(client, .submit(id: "05", page: 2, text: nil, path: "a.png"), F.now(3)))
                == [.reply(client, .failure("submit needs a text or an absolute path"))])
        var verdict = Self.verdict("red", id: 100, submission: 1, digest: Self.digestRed, accepted: true, points: 5)
        verdict.key = EngineScheduleTests.organiser
        let heard = engine.handle(
            .hunt(
                .heard(
                    verdict, topic: HuntTopic.verdict(hunt: HuntFixture.huntID, team: "red", id: 100),
                    signatureValid: true), F.now(4)))
        let told = heard.compactMap { if case let .emit(.said(said, _, _)) = $0 { said } else { nil } }
        #expect(told.map(\.text) == ["mission 05ababab page 2 accepted: 5 points"])
        #expect(told.map(\.team) == ["red"])
        #expect(heard.contains { if case .announce = $0 { true } else { false } }, "a desktop notification")
    }
}
