import Foundation
import Testing

@testable import ChestCore

private typealias F = CoreFixture

/// The hunt under the engine (Engine+Hunt.swift, docs/HUNTS.md): receipts owed and caught up after a kill,
/// sessions and wills, statuses sent when what they show changes, releases believed and kept. The link is played
/// by the test: it answers `.postReceipt` as chestd's `HuntLink` would.
@Suite struct EngineHuntTests {
    static let join = HuntFixture.hunt().joinFile(team: TeamName("red")!)!

    static func message(_ n: UInt8 = 1) -> Message {
        F.message(n, pages: [Page(text: "at the tower", setA: [.location(center: F.tower, radius: 30)], setB: [])])
    }

    static func joined(
        _ engine: inout Engine, ledger: HuntReceiptLedger? = nil, releases: [String: ReleaseKey] = [:],
        at seconds: Double = 0
    ) -> [Engine.Effect] {
        engine.handle(.hunt(.joined(join, ledger: ledger, releases: releases, outbox: 0), F.now(seconds)))
    }

    /// Three fixes at the tower, from `start`: opens the message's page.
    static func walk(_ engine: inout Engine, from start: Double) -> [Engine.Effect] {
        (0..<3).flatMap { engine.handle(.fix(F.fix(at: start + Double($0)), F.now(start + Double($0)))) }
    }

    @Test func anUnlockSendsItsReceiptOnlyOnceTheStateIsOnDisk() throws {
        var engine = F.engine([F.stored(Self.message())])
        let join = Self.joined(&engine, at: 1)
        let ledger = try #require(join.compactMap { if case let .hunt(.keepLedger(l)) = $0 { l } else { nil } }.first)
        #expect(ledger.since == F.now(1).wall && ledger.sent.isEmpty, "joining starts the ledger now, kept at once")
        let effects = Self.walk(&engine, from: 10)
        let persist = try #require(effects.first { if case .persist = $0 { true } else { false } })
        guard case let .persist(_, _, then) = persist else { return }
        let receipts = then.compactMap {
            if case let .hunt(.postReceipt(r, _, link, _)) = $0 { (r, link) } else { nil }
        }
        #expect(receipts.count == 1, "the receipt rides in the persist's then")
        #expect(
            receipts.first?.0.page == 1 && receipts.first?.0.reader == ""
                && receipts.first?.0.evidence.fixes.first?.latitude == nil,
            "a hunt that does not share positions sends none")
        // Answered: the ledger records it; not answered yet, nothing asks again.
        #expect(
            engine.handle(.tick(F.now(14))).flattened.allSatisfy {
                if case .hunt(.postReceipt) = $0 { false } else { true }
            })
        let link = PageLink(message: Self.message().id, page: 1)
        let kept = engine.handle(.hunt(.receiptPosted(link, failure: nil), F.now(15)))
        #expect(kept.contains { if case let .hunt(.keepLedger(l)) = $0 { l.sent == [link] } else { false } })
    }

    @Test func aKillBetweenTheUnlockAndTheOutboxIsCaughtUpAtTheNextStart() throws {
        // First run: the page opens and the state is saved, then chestd dies before the receipt reaches the outbox.
        var first = F.engine([F.stored(Self.message()), F.stored(Self.message(2))])
        let ledger = try #require(
            Self.joined(&first, at: 1).compactMap { if case let .hunt(.keepLedger(l)) = $0 { l } else { nil } }.first)
        _ = Self.walk(&first, from: 10)
        let saved = try #require(first.entries[Self.message().id])
        // Restart: the join file and its ledger are read before the chest, as chestd does.
        var second = Engine(gpsServer: "localhost:2947")
        let before = Self.joined(&second, ledger: ledger, at: 20)
        #expect(
            !before.contains { if case .hunt(.postReceipt) = $0 { true } else { false } },
            "nothing before the chest is loaded")
        let loaded = second.handle(.loaded([saved, F.stored(Self.message(2))], refused: [], F.now(21))).flattened
        let caught = loaded.compactMap { if case let .hunt(.postReceipt(_, _, link, true)) = $0 { link } else { nil } }
        #expect(caught == [PageLink(message: Self.message().id, page: 1)])
        #expect(
            loaded.contains { if case let .hunt(.postStatus(post)) = $0 { post.status.pagesOpen == 1 } else { false } })
        // Once it is in the ledger, a third start owes nothing.
        var ledgerAfter = ledger
        ledgerAfter.sent.insert(PageLink(message: Self.message().id, page: 1))
        var third = Engine(gpsServer: "localhost:2947")
        _ = Self.joined(&third, ledger: ledgerAfter, at: 30)
        #expect(
            !third.handle(.loaded([saved], refused: [], F.now(31))).flattened.contains {
                if case .hunt(.postReceipt) = $0 { true } else { false }
            })
    }

    @Test func pagesOpenedBeforeJoiningOrFailedToPostAreHandledSoundly() throws {
        var engine = F.engine([F.stored(Self.message())])
        _ = Self.walk(&engine, from: 1)
        let saved = try #require(engine.entries[Self.message().id])
        // Joined after the page opened: its receipt is not the hunt's.
        var later = Engine(gpsServer: "localhost:2947")
        _ = Self.joined(&later, at: 100)
        #expect(
            !later.handle(.loaded([saved], refused: [], F.now(101))).flattened.contains {
                if case .hunt(.postReceipt) = $0 { true } else { false }
            })
        // A receipt the outbox refused (a full disk) is not in the ledger, so it stays owed.
        var full = F.engine([F.stored(Self.message())])
        _ = Self.joined(&full, at: 1)
        _ = Self.walk(&full, from: 10)
        let refused = full.handle(
            .hunt(.receiptPosted(PageLink(message: Self.message().id, page: 1), failure: "disk full"), F.now(14)))
        #expect(!refused.contains { if case .hunt(.keepLedger) = $0 { true } else { false } })
    }

    @Test func sessionsOrderStatusesAndWillsAcrossReconnections() throws {
        var engine = F.engine([F.stored(Self.message())])
        let join = Self.joined(&engine, at: 5)
        guard
            case let .hunt(.connect(file, will))? = join.first(where: {
                if case .hunt(.connect) = $0 { true } else { false }
            })
        else {
            Issue.record("joining connects")
            return
        }
        #expect(file == Self.join && !will.status.online)
        let firstStatus = try #require(Self.posts(join).first)
        #expect(
            firstStatus.status.online && firstStatus.id > 0 && firstStatus.id < will.id,
            "a session's statuses come before its will")
        #expect(
            Self.posts(engine.handle(.hunt(.connected, F.now(6)))).first.map { $0.id > firstStatus.id } == true,
            "on connecting, the status in force is restated")
        let lost = engine.handle(.hunt(.lost("broker gone"), F.now(7)))
        guard case let .hunt(.setWill(next))? = lost.last else {
            Issue.record("a lost connection sets the next will")
            return
        }
        #expect(next.id > will.id, "the next session is above the last, even within the same second")
        #expect(engine.hunt?.connected == false && engine.hunt?.problem == "broker gone")
        let restated = try #require(Self.posts(engine.handle(.hunt(.connected, F.now(8)))).first)
        #expect(restated.id > will.id && restated.id < next.id)
        #expect(engine.hunt?.connected == true && engine.hunt?.problem == nil)
        // chestd restarts within the same second: the session kept in the ledger keeps the ids rising.
        let ledger = try #require(lost.compactMap { if case let .hunt(.keepLedger(l)) = $0 { l } else { nil } }.last)
        var restarted = Engine(gpsServer: "localhost:2947")
        _ = restarted.handle(.loaded([F.stored(Self.message())], refused: [], F.now(7)))
        let again = Self.joined(&restarted, ledger: ledger, at: 7)
        #expect(Self.posts(again).first.map { $0.id > next.id } == true, "above the killed run's last will")
    }

    @Test func aStatusIsSentWhenWhatItShowsChangesAndOnlyThen() throws {
        var engine = F.engine([F.stored(Self.message())])
        _ = Self.joined(&engine)
        let first = engine.handle(.fix(F.fix(at: 1, F.north(of: F.tower, metres: 500)), F.now(1)))
        #expect(Self.posts(first).first?.status.fixMode == 3, "the first fix changes the fix mode shown")
        #expect(
            Self.posts(engine.handle(.fix(F.fix(at: 2, F.north(of: F.tower, metres: 500)), F.now(2)))).isEmpty,
            "another fix of the same mode and trust says nothing new")
        #expect(Self.posts(engine.handle(.fix(F.fix(at: 3, mode: .twoD), F.now(3)))).first?.status.fixMode == 2)
        let opened = Self.walk(&engine, from: 10)
        #expect(Self.posts(opened).last?.status.pagesOpen == 1, "an unlock changes the pages shown")
        #expect(Self.posts(engine.handle(.tick(F.now(20)))).isEmpty)
    }

    @Test func releasesAreBelievedOnlyFromTheOrganiserAndKept() throws {
        var engine = F.engine([])
        _ = Self.joined(&engine)
        let topic = HuntTopic.release(hunt: HuntFixture.huntID, name: "finale")
        let forged = engine.handle(
            .hunt(.heard(HuntFixture.releaseEnvelope("finale", id: 1), topic: topic, signatureValid: false), F.now(1)))
        #expect(
            forged == [.ignored(.refused(.badSignature), topic: topic)] && engine.hunt?.ignored["badSignature"] == 1,
            "the engine says what it ignored, for the log")
        let heard = engine.handle(
            .hunt(.heard(HuntFixture.releaseEnvelope("finale", id: 1), topic: topic, signatureValid: true), F.now(2)))
        #expect(
            heard.contains {
                if case let .hunt(.keepReleases(r)) = $0 {
                    r == ["finale": HuntFixture.releaseKey(0x20)]
                } else {
                    false
                }
            })
        #expect(engine.hunt?.releases == ["finale"])
        // The broker hands the retained release again on every reconnect: nothing more to keep.
        #expect(
            engine.handle(
                .hunt(
                    .heard(HuntFixture.releaseEnvelope("finale", id: 1), topic: topic, signatureValid: true), F.now(3))
            ).isEmpty)
        _ = engine.handle(.hunt(.malformed(topic: topic), F.now(4)))
        #expect(engine.hunt?.ignored["malformed"] == 1)
        // A restart knows the releases the chest kept, without a broker.
        var restarted = Engine(gpsServer: "localhost:2947")
        _ = Self.joined(&restarted, releases: ["finale": HuntFixture.releaseKey(0x20)])
        #expect(restarted.releaseNames == ["finale"])
    }

    @Test func theSameJoinFileChangesNothingAndAnotherReplacesTheLink() throws {
        var engine = F.engine([])
        _ = Self.joined(&engine)
        #expect(Self.joined(&engine, at: 5).isEmpty, "a reload with the same join file")
        let blue = HuntFixture.hunt().joinFile(team: TeamName("blue")!)!
        let effects = engine.handle(.hunt(.joined(blue, ledger: nil, releases: [:], outbox: 2), F.now(6)))
        #expect(effects.first == .hunt(.disconnect))
        #expect(effects.contains { if case let .hunt(.connect(file, _)) = $0 { file == blue } else { false } })
        #expect(engine.hunt?.team == "blue" && engine.hunt?.outbox == 2)
        #expect(
            engine.handle(.hunt(.joined(nil, ledger: nil, releases: [:], outbox: 0), F.now(7))) == [.hunt(.disconnect)])
        #expect(engine.hunt == nil)
    }

    static func posts(_ effects: [Engine.Effect]) -> [HuntStatusPost] {
        effects.flattened.compactMap { if case let .hunt(.postStatus(post)) = $0 { post } else { nil } }
    }
}
