import ChestCore
import ChestIO
import ChestMQTT
import ChestSeal
import ChestTestSupport
import ChestWeb
import Foundation
import Testing

@testable import ChestCLI

/// `chest board`'s loop in process (docs/ARCHITECTURE.md "The board's core"): a fake broker, a recorder in place of
/// the web board, a clock the test advances, and real files and signatures. The start key goes out at the start by
/// the loop's clock and waits for the broker; a hint's answer waits while the broker is away; the browsers see the
/// broker's state at once and the board at most every 0.2 ms a team; a restarted loop shows the board its journal
/// kept and answers nothing twice.
@Suite struct BoardLoopTests {
    let directory = NSTemporaryDirectory() + "chest-board-loop-\(UUID())"
    var huntPath: String { directory + "/hunt.hunt" }
    static let message = MessageID(String(repeating: "cd", count: 16))!

    /// What the loop handed the browsers.
    final class Recorder: BoardPublisher {
        private(set) var published: [(snapshot: BoardSnapshot, events: [BoardEvent])] = []
        func publish(_ snapshot: BoardSnapshot, events: [BoardEvent]) { published.append((snapshot, events)) }
    }

    /// The broker client the link made, for the test to drive.
    final class Brokers: @unchecked Sendable {
        var made: [FakeBroker] = []
    }

    /// A hunt of these teams, one page with a hint of cost 2, the start key, written where the loop reads it.
    func setUp(teams: [String] = ["red"], starts: Date? = nil, hintAfter: Double? = nil) throws -> (
        HuntFile, organiser: Identity
    ) {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let organiser = try Identity.loadOrCreate(at: directory + "/organiser.json")
        var hunt = HuntFile(
            id: HuntSigner.newHuntID(), name: "Loop", broker: BrokerURL("mqtt://127.0.0.1:1883")!,
            organiser: organiser.publicKeyBase64)
        hunt.teams = teams.map { name in
            let keys = HuntSigner.newTeamKeys()
            return HuntTeam(
                name: TeamName(name)!, password: HuntSigner.newPassword(), publicKey: keys.publicKey,
                secretKey: keys.secretKey)
        }
        hunt.organiserPassword = HuntSigner.newPassword()
        hunt.starts = starts
        hunt.releases = [.start: HuntSigner.newReleaseKey()]
        hunt.messages = [
            Self.message: HuntMessage(
                title: "Clue",
                pages: [
                    .init(
                        key: Data(repeating: 7, count: 32).base64EncodedString(), guarded: false,
                        hints: [
                            .init(key: Data(repeating: 9, count: 32).base64EncodedString(), cost: 2, after: hintAfter)
                        ])
                ])
        ]
        try hunt.write(to: huntPath)
        return (hunt, organiser)
    }

    /// A loop over a fake broker and a recorder, on `clock`, its journal restored.
    func loop(_ hunt: HuntFile, _ organiser: Identity, clock: ManualClock) throws -> (
        BoardLoop, FakeBroker, Recorder
    ) {
        var feed = BoardFeed(hunt: hunt, huntPath: huntPath, organiser: organiser)
        _ = try feed.restore()
        let brokers = Brokers()
        let link = try OrganiserLink(hunt: hunt, purpose: "board", rated: true) { options, onEvent in
            let broker = FakeBroker(options, onEvent: onEvent)
            brokers.made.append(broker)
            return broker
        }
        let recorder = Recorder()
        let loop = BoardLoop(feed: feed, adapters: BoardLoop.Adapters(link: link, web: recorder, clock: clock))
        return (loop, try #require(brokers.made.first), recorder)
    }

    /// A hint request from `team`'s reader, with the status that claims the reader first.
    func askForTheHint(_ hunt: HuntFile, team: String, through broker: FakeBroker) throws {
        let teamFile = try #require(hunt.team(named: TeamName(team)!))
        let reader = try Identity.loadOrCreate(at: directory + "/\(team)-reader.json")
        let status = ReaderClaim.claim(
            TeamStatus(online: true, pagesOpen: 0), hunt: hunt.id, team: team, identity: reader)
        let claimed = try #require(
            HuntSigner.sign(
                HuntEnvelope(hunt: hunt.id, sender: team, id: 1, sent: Date(), status: status), team: teamFile))
        broker.deliver(topic: HuntTopic.status(hunt: hunt.id, team: team), payload: Data(claimed.bytes))
        let request = HuntHintRequest(message: Self.message, page: 1, hint: 1)
        let asked = try #require(
            HuntSigner.sign(
                HuntEnvelope(hunt: hunt.id, sender: team, id: 2, sent: Date(), hintRequest: request), team: teamFile))
        broker.deliver(topic: HuntTopic.hintRequest(hunt: hunt.id, team: team, id: 2), payload: Data(asked.bytes))
    }

    @Test func theStartKeyGoesOutAtTheStartByTheLoopsClockOnceTheBrokerTakesIt() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = ManualClock(wall: Date(timeIntervalSince1970: 1_900_000_000))
        let (hunt, organiser) = try setUp(starts: clock.now().wall.addingTimeInterval(60))
        var (loop, broker, _) = try loop(hunt, organiser, clock: clock)
        loop.start()
        #expect(broker.started && broker.subscriptions == [HuntTopic.all(hunt: hunt.id)])
        broker.connect()
        _ = loop.step(waitingAtMost: 0)
        #expect(broker.published.isEmpty, "nothing before the start")

        clock.advance(by: 59)
        broker.disconnect("the venue's network")
        clock.advance(by: 2)
        _ = loop.step(waitingAtMost: 0)
        #expect(broker.published.isEmpty, "the broker is away")
        broker.connect()
        _ = loop.step(waitingAtMost: 0)
        let sent = try #require(broker.published.first?.message)
        #expect(broker.published.count == 1)
        #expect(sent.topic == HuntTopic.release(hunt: hunt.id, name: HuntRelease.startName) && sent.retain)
        let envelope = try HuntEnvelope.decode(sent.payload)
        #expect(HuntSigner.isValid(envelope) && envelope.key == organiser.publicKeyBase64)
        #expect(envelope.sent == clock.now().wall)
        guard case let .release(release) = envelope.body else {
            Issue.record("not a release: \(envelope.kind)")
            return
        }
        #expect(release.key == hunt.releases?[.start])
        _ = loop.step(waitingAtMost: 0)
        #expect(broker.published.count == 1, "once a run")
        loop.finish()
        #expect(broker.stopped)
    }

    @Test func aHintsAnswerWaitsWhileTheBrokerIsAwayAndTheBrowsersSeeWhy() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = ManualClock()
        let (hunt, organiser) = try setUp()
        var (loop, broker, recorder) = try loop(hunt, organiser, clock: clock)
        loop.start()
        #expect(recorder.published.first?.snapshot.connection == .connecting)
        broker.connect()
        _ = loop.step(waitingAtMost: 0)
        let startKey = broker.published.count
        broker.disconnect("keepalive timeout")
        try askForTheHint(hunt, team: "red", through: broker)
        let events = loop.step(waitingAtMost: 0)
        #expect(events.contains { if case .hint(team: "red", _, 1, 1, 2, true, _) = $0 { true } else { false } })
        #expect(broker.published.count == startKey, "nothing goes out while the broker is away")
        #expect(recorder.published.last?.snapshot.connection == .reconnecting("keepalive timeout"))
        #expect(recorder.published.last?.snapshot.board.teams.first?.points == -2)

        broker.connect()
        _ = loop.step(waitingAtMost: 0)
        let answers = broker.published.dropFirst(startKey).map(\.message)
        #expect(answers.count == 1)
        #expect(answers.first.map { HuntTopic.parse($0.topic, hunt: hunt.id) != nil } == true)
        #expect(recorder.published.last?.snapshot.connection == .connected)
        loop.finish()
    }

    /// docs/HUNTS.md "Hints: the board's side": a delayed hint falls due as the loop's clock passes its moment.
    @Test func aDelayedHintGoesOutWhenTheLoopsClockReachesItsMoment() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = ManualClock(wall: Date(timeIntervalSince1970: 1_900_000_000))
        let (hunt, organiser) = try setUp(hintAfter: 60)
        var (loop, broker, _) = try loop(hunt, organiser, clock: clock)
        loop.start()
        broker.connect()
        let teamFile = try #require(hunt.team(named: TeamName("red")!))
        let reader = try Identity.loadOrCreate(at: directory + "/red-reader.json")
        let status = ReaderClaim.claim(
            TeamStatus(online: true, pagesOpen: 0), hunt: hunt.id, team: "red", identity: reader)
        let claimed = try #require(
            HuntSigner.sign(
                HuntEnvelope(hunt: hunt.id, sender: "red", id: 1, sent: clock.now().wall, status: status),
                team: teamFile))
        broker.deliver(topic: HuntTopic.status(hunt: hunt.id, team: "red"), payload: Data(claimed.bytes))
        _ = loop.step(waitingAtMost: 0)
        let hints = { broker.published.filter { $0.message.topic.contains("/hint/") } }
        clock.advance(by: 59)
        _ = loop.step(waitingAtMost: 0)
        #expect(hints().isEmpty, "not before its moment")
        clock.advance(by: 1)
        let events = loop.step(waitingAtMost: 0)
        #expect(events.contains { if case .hint(team: "red", _, 1, 1, 0, true, _) = $0 { true } else { false } })
        #expect(hints().count == 1)
        loop.finish()
    }

    @Test func aboveFiveHundredTeamsTheBrowsersGetTheBoardAtMostEvery0_2MsATeamWithEveryEvent() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = ManualClock()
        let (hunt, organiser) = try setUp(teams: (1...1_000).map { "team\($0)" })
        var (loop, broker, recorder) = try loop(hunt, organiser, clock: clock)
        loop.start()
        broker.connect()
        _ = loop.step(waitingAtMost: 0)
        let shown = recorder.published.count
        // Two junk messages on a team's topic, each a refusal event, within the 0.2 s of 1,000 teams.
        for id in 1...2 {
            broker.deliver(
                topic: HuntTopic.receipt(hunt: hunt.id, team: "team7", id: UInt64(id)), payload: Data("junk".utf8))
            clock.advance(by: 0.05)
            _ = loop.step(waitingAtMost: 0)
        }
        #expect(recorder.published.count == shown, "within 0.2 s of the last")
        clock.advance(by: 0.2)
        _ = loop.step(waitingAtMost: 0)
        #expect(recorder.published.count == shown + 1)
        let refusals = recorder.published.last?.events.filter { if case .refused = $0 { true } else { false } }
        #expect(refusals?.count == 2, "both, in one snapshot")
        // The broker's state is shown at once.
        broker.disconnect("gone")
        _ = loop.step(waitingAtMost: 0)
        #expect(recorder.published.count == shown + 2)
        loop.finish()
    }

    @Test func aRestartedLoopShowsWhatItsJournalKeptAndAnswersNothingTwice() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = ManualClock()
        let (hunt, organiser) = try setUp()
        do {
            var (loop, broker, _) = try loop(hunt, organiser, clock: clock)
            loop.start()
            broker.connect()
            try askForTheHint(hunt, team: "red", through: broker)
            _ = loop.step(waitingAtMost: 0)
            #expect(broker.published.contains { $0.message.topic.contains("/hint/") })
            loop.finish()
        }
        var (loop, broker, recorder) = try loop(hunt, organiser, clock: clock)
        loop.start()
        #expect(recorder.published.first?.snapshot.board.teams.first?.points == -2)
        broker.connect()
        try askForTheHint(hunt, team: "red", through: broker)
        _ = loop.step(waitingAtMost: 0)
        #expect(!broker.published.contains { $0.message.topic.contains("/hint/") }, "charged and answered once")
        #expect(loop.feed.board.teams.first?.points == -2)
        loop.finish()
    }
}
