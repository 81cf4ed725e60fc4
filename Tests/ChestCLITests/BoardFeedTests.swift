import ChestCore
import ChestSeal
import Foundation
import Testing

@testable import ChestCLI

/// `chest board`'s adapter in process, on real files and real signatures, without a broker (docs/ARCHITECTURE.md
/// "The board's core"): the journal it writes stays small whatever junk arrives (issue 33) and brings the board back
/// after a restart; a hint request gets an answer sealed to the team's reader and signed by the organiser.
@Suite struct BoardFeedTests {
    let directory = NSTemporaryDirectory() + "chest-board-feed-\(UUID())"
    var huntPath: String { directory + "/hunt.hunt" }

    func setUp() throws -> (HuntFile, team: HuntTeam, organiser: Identity, reader: Identity) {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let organiser = try Identity.loadOrCreate(at: directory + "/organiser.json")
        let reader = try Identity.loadOrCreate(at: directory + "/reader.json")
        let keys = HuntSigner.newTeamKeys()
        let team = HuntTeam(
            name: TeamName("red")!, password: HuntSigner.newPassword(), publicKey: keys.publicKey,
            secretKey: keys.secretKey)
        var hunt = HuntFile(
            id: HuntSigner.newHuntID(), name: "Feed", broker: BrokerURL("mqtt://127.0.0.1:1883")!,
            organiser: organiser.publicKeyBase64)
        hunt.teams = [team]
        hunt.organiserPassword = HuntSigner.newPassword()
        hunt.messages = [
            MessageID(String(repeating: "ab", count: 16))!: HuntMessage(
                title: "Clue",
                pages: [
                    .init(
                        key: Data(repeating: 7, count: 32).base64EncodedString(), guarded: false,
                        hints: [.init(key: Data(repeating: 9, count: 32).base64EncodedString(), cost: 2)])
                ])
        ]
        try hunt.write(to: huntPath)
        return (hunt, team, organiser, reader)
    }

    func signed(_ envelope: HuntEnvelope, _ team: HuntTeam) throws -> Data {
        try #require(HuntSigner.sign(envelope, team: team)).bytes
    }

    /// A message as `chest board` takes one: the rate first (on libmosquitto's thread, `OrganiserLink.post`), then
    /// the feed, with the refusals the loop takes after each batch.
    static func offer(
        _ feed: inout BoardFeed, _ rate: inout TeamRate, topic: String, payload: Data, retained: Bool, at: Date
    ) -> [BoardEvent] {
        guard rate.admits(topic: topic, retained: retained, at: at) else { return feed.refuse(rate.takeRefused()) }
        return feed.receive(topic: topic, payload: payload, retained: retained, at: at)
    }

    @Test func junkLeavesTheJournalSmallAndARestartCountsItAll() throws {
        let (hunt, team, organiser, reader) = try setUp()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var feed = BoardFeed(hunt: hunt, huntPath: huntPath, organiser: organiser)
        var rate = TeamRate(hunt: hunt)
        #expect(try feed.restore().isEmpty)
        let status = ReaderClaim.claim(
            TeamStatus(online: true, pagesOpen: 0), hunt: hunt.id, team: "red", identity: reader)
        _ = feed.receive(
            topic: HuntTopic.status(hunt: hunt.id, team: "red"),
            payload: try signed(HuntEnvelope(hunt: hunt.id, sender: "red", id: 1, sent: Date(), status: status), team),
            retained: true, at: Date(timeIntervalSince1970: 1_800_000_000))
        // 6,000 over ten minutes: a hundred times the refusal lines kept, across ten count intervals.
        for index in 0..<6_000 {
            _ = Self.offer(
                &feed, &rate, topic: "chest/\(hunt.id)/red/receipt/\(index + 1)",
                payload: Data(repeating: UInt8(index % 200), count: 300),
                retained: false, at: Date(timeIntervalSince1970: 1_800_000_001 + Double(index) / 10))
        }
        feed.stop(at: Date(timeIntervalSince1970: 1_800_001_000))
        let size = try #require(
            try FileManager.default.attributesOfItem(atPath: BoardFeed.journalPath(huntPath: huntPath))[.size] as? Int)
        #expect(size < 50_000, "the journal is \(size) bytes after 6,000 junk messages")

        var again = BoardFeed(hunt: hunt, huntPath: huntPath, organiser: organiser)
        _ = try again.restore()
        // Ten a second is beyond one team's rate (TeamRate): what passed it was looked at (malformed), the rest refused
        // unlooked at (tooFast); both counted, all 6,000.
        let malformed = again.gate.refused[.malformed, default: 0]
        let tooFast = again.gate.refused[.tooFast, default: 0]
        #expect(
            malformed + tooFast == 6_000 && tooFast > 5_000 && again.gate.refused.count == 2, "\(again.gate.refused)")
        #expect(again.board.teams[0].refusals == ["malformed": malformed, "tooFast": tooFast])
        #expect(again.board.teams[0].reader == reader.publicKeyBase64)
        again.stop(at: Date(timeIntervalSince1970: 1_800_001_001))
    }

    /// A team that floods (issue 50): signed statuses as fast as it can make them. Its burst is taken, then one a
    /// second; the rest are refused before their signatures are checked, shown once a minute and journalled as
    /// counts, so the journal grows by the team's rate, not by its flood. What the broker hands over on subscribing
    /// (retained) is not counted against it.
    @Test func aTeamBeyondItsRateIsRefusedUncheckedAndTheJournalGrowsByTheRateOnly() throws {
        let (hunt, team, organiser, reader) = try setUp()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var feed = BoardFeed(hunt: hunt, huntPath: huntPath, organiser: organiser)
        var rate = TeamRate(hunt: hunt)
        _ = try feed.restore()
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        let status = ReaderClaim.claim(
            TeamStatus(online: true, pagesOpen: 0), hunt: hunt.id, team: "red", identity: reader)
        func statusPayload(_ id: UInt64) throws -> Data {
            try signed(HuntEnvelope(hunt: hunt.id, sender: "red", id: id, sent: t0, status: status), team)
        }
        var events: [BoardEvent] = []
        // 300 in two seconds: 100 at once, then one a second.
        for index in 0..<300 {
            events += Self.offer(
                &feed, &rate, topic: HuntTopic.status(hunt: hunt.id, team: "red"),
                payload: try statusPayload(UInt64(index + 1)),
                retained: false, at: t0.addingTimeInterval(Double(index) / 150))
        }
        let tooFast = feed.gate.refused[.tooFast, default: 0]
        #expect((197...199).contains(tooFast), "\(feed.gate.refused)")
        #expect(
            feed.gate.seen.senders["red"]?.highestStatus == UInt64(300 - tooFast) || tooFast > 0, "\(feed.gate.refused)"
        )
        let shown = events.filter { if case .refused("tooFast", "red", _) = $0 { true } else { false } }
        #expect(shown.count == 1, "shown once a minute, not once a message: \(shown.count)")
        // Retained: what a new subscription is handed, not the team's pace.
        _ = Self.offer(
            &feed, &rate, topic: HuntTopic.status(hunt: hunt.id, team: "red"), payload: try statusPayload(1_000),
            retained: true, at: t0.addingTimeInterval(2))
        #expect(feed.gate.seen.senders["red"]?.highestStatus == 1_000)
        feed.stop(at: t0.addingTimeInterval(3))
        let lines = try String(contentsOfFile: BoardFeed.journalPath(huntPath: huntPath), encoding: .utf8).split(
            separator: "\n")
        #expect(lines.count <= 106, "\(lines.count) journal lines for 301 statuses")

        var again = BoardFeed(hunt: hunt, huntPath: huntPath, organiser: organiser)
        _ = try again.restore()
        #expect(again.gate.refused[.tooFast] == tooFast && again.board.teams[0].refusals["tooFast"] == tooFast)
        again.stop(at: t0.addingTimeInterval(4))
    }

    @Test func aHintRequestIsAnsweredSealedToTheReaderAndSignedByTheOrganiser() throws {
        let (hunt, team, organiser, reader) = try setUp()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var feed = BoardFeed(hunt: hunt, huntPath: huntPath, organiser: organiser)
        _ = try feed.restore()
        let status = ReaderClaim.claim(
            TeamStatus(online: true, pagesOpen: 0), hunt: hunt.id, team: "red", identity: reader)
        _ = feed.receive(
            topic: HuntTopic.status(hunt: hunt.id, team: "red"),
            payload: try signed(HuntEnvelope(hunt: hunt.id, sender: "red", id: 1, sent: Date(), status: status), team),
            retained: false, at: Date())
        let request = HuntHintRequest(message: MessageID(String(repeating: "ab", count: 16))!, page: 1, hint: 1)
        let events = feed.receive(
            topic: HuntTopic.hintRequest(hunt: hunt.id, team: "red", id: 2),
            payload: try signed(
                HuntEnvelope(hunt: hunt.id, sender: "red", id: 2, sent: Date(), hintRequest: request), team),
            retained: false, at: Date())
        #expect(events.contains { if case .hint(_, _, _, _, 2, true, _) = $0 { true } else { false } }, "\(events)")
        let outgoing = feed.takeOutgoing()
        let message = try #require(outgoing.first)
        #expect(outgoing.count == 1 && message.retain && message.qos == 1)
        #expect(
            HuntTopic.parse(message.topic, hunt: hunt.id).map {
                if case .hint(team: "red", hintID: _) = $0 { true } else { false }
            } == true)
        let answer = try HuntEnvelope.decode(message.payload)
        #expect(HuntSigner.isValid(answer) && answer.key == organiser.publicKeyBase64)
        guard case let .hint(hint) = answer.body else {
            Issue.record("not a hint: \(answer.kind)")
            return
        }
        let sealed = try #require(Data(base64Encoded: hint.sealed))
        // Sealed to the team's key, which every device of the team has (docs/HUNTS.md "Several devices in one team").
        let teamKey = [UInt8](try #require(team.secretKey.flatMap { Data(base64Encoded: $0) }))
        #expect(HintSeal.open(sealed, withSecretKey: teamKey) == Data(repeating: 9, count: 32))
        #expect(HintSeal.open(sealed, with: reader) == nil)
        #expect(feed.board.teams[0].points == -2)

        // Where the identity is not the organiser's, nothing is signed: the request is refused, and says why.
        var elsewhere = BoardFeed(hunt: hunt, huntPath: huntPath + ".copy", organiser: reader)
        _ = try elsewhere.restore()
        _ = elsewhere.receive(
            topic: HuntTopic.status(hunt: hunt.id, team: "red"),
            payload: try signed(HuntEnvelope(hunt: hunt.id, sender: "red", id: 1, sent: Date(), status: status), team),
            retained: false, at: Date())
        let refused = elsewhere.receive(
            topic: HuntTopic.hintRequest(hunt: hunt.id, team: "red", id: 2),
            payload: try signed(
                HuntEnvelope(hunt: hunt.id, sender: "red", id: 2, sent: Date(), hintRequest: request), team),
            retained: false, at: Date())
        #expect(
            refused.first
                == .refused(
                    reason: "cannotAnswer", team: "red",
                    why:
                        "hint request 2: this board does not run with the organiser's identity, so it cannot sign the answer"
                ))
        #expect(elsewhere.takeOutgoing().isEmpty)
    }

    /// Issue 45: a delayed hint the board gives by itself. The loop waits no longer than its due moment; the tick seals
    /// it, free, to the team's reader; a restarted board replays the journal and has given it, without answering again.
    @Test func aDelayedHintIsSealedFreeAtItsDueMomentAndNotAnsweredAgainAfterARestart() throws {
        var (hunt, team, organiser, reader) = try setUp()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        hunt.messages?[MessageID(String(repeating: "ab", count: 16))!]?.pages[0].hints = [
            .init(key: Data(repeating: 9, count: 32).base64EncodedString(), cost: 2, after: 60)
        ]
        try hunt.write(to: huntPath)
        let heard = Date(timeIntervalSince1970: 1_800_000_000)
        var feed = BoardFeed(hunt: hunt, huntPath: huntPath, organiser: organiser)
        _ = try feed.restore()
        #expect(feed.wait(at: heard, longest: 0.2) == 0.2)
        let status = ReaderClaim.claim(
            TeamStatus(online: true, pagesOpen: 0), hunt: hunt.id, team: "red", identity: reader)
        _ = feed.receive(
            topic: HuntTopic.status(hunt: hunt.id, team: "red"),
            payload: try signed(HuntEnvelope(hunt: hunt.id, sender: "red", id: 1, sent: heard, status: status), team),
            retained: false, at: heard)
        #expect(feed.wait(at: heard.addingTimeInterval(59.9), longest: 0.2) < 0.11)
        #expect(feed.tick(at: heard.addingTimeInterval(59)).isEmpty && feed.takeOutgoing().isEmpty)
        let events = feed.tick(at: heard.addingTimeInterval(60))
        #expect(events.contains { if case .hint(_, _, 1, 1, 0, true, _) = $0 { true } else { false } }, "\(events)")
        let outgoing = feed.takeOutgoing()
        let answer = try HuntEnvelope.decode(try #require(outgoing.first).payload)
        #expect(outgoing.count == 1 && HuntSigner.isValid(answer) && answer.key == organiser.publicKeyBase64)
        guard case let .hint(hint) = answer.body else {
            Issue.record("not a hint: \(answer.kind)")
            return
        }
        let sealed = try #require(Data(base64Encoded: hint.sealed))
        let teamKey = [UInt8](try #require(team.secretKey.flatMap { Data(base64Encoded: $0) }))
        #expect(hint.cost == 0 && HintSeal.open(sealed, withSecretKey: teamKey) == Data(repeating: 9, count: 32))
        #expect(feed.board.teams[0].points == 0 && feed.board.teams[0].hints.count == 1)
        feed.stop(at: heard.addingTimeInterval(61))

        var again = BoardFeed(hunt: hunt, huntPath: huntPath, organiser: organiser)
        _ = try again.restore()
        _ = again.tick(at: heard.addingTimeInterval(120))
        #expect(
            again.board.teams[0].hints.map(\.cost) == [0] && again.takeOutgoing().isEmpty,
            "given before the restart, not again")
        again.stop(at: heard.addingTimeInterval(121))
    }
}
