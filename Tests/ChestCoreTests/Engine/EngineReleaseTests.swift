import Foundation
import Testing

@testable import ChestCore

private typealias F = CoreFixture

/// Release locks in the engine (docs/HUNTS.md "Releases"), with the seal worker played by the test: nothing is
/// derived before the organiser's key arrives; then the set's key is asked for with it, and the page opens when the
/// key opens it and the set's other locks hold.
@Suite struct EngineReleaseTests {
    static let content = SealedContent(text: "The finale: meet at the fountain.", a: nil)
    static let key = ReleaseKey(bytes: [UInt8](repeating: 7, count: 32))

    static func message(setA: [Lock] = [.release("finale")]) -> Message {
        let slot = KeySlot.sealed(
            salt: [UInt8](repeating: 1, count: 16), cost: SealCost.Level.interactive.cost,
            wrapped: [UInt8](repeating: 2, count: 72))
        return F.message(pages: [
            Page(
                text: "", setA: setA, setB: [],
                sealed: SealedPage(ciphertext: [UInt8](repeating: 3, count: 296), slots: [.a: slot]))
        ])
    }

    /// The organiser's release heard on the broker by a team that joined the hunt; each key a newer release.
    static func release(_ engine: inout Engine, _ name: String, key: ReleaseKey, at seconds: Double) -> [Engine.Effect]
    {
        if engine.hunt == nil {
            _ = engine.handle(
                .hunt(
                    .joined(HuntFixture.hunt().joinFile(team: TeamName("red")!), ledger: nil, releases: [:], outbox: 0),
                    F.now(0)))
        }
        let envelope = HuntFixture.releaseEnvelope(name, id: UInt64(seconds * 10), key: key)
        return engine.handle(
            .hunt(
                .heard(envelope, topic: HuntTopic.release(hunt: HuntFixture.huntID, name: name), signatureValid: true),
                F.now(seconds)))
    }

    @Test func aReleasedKeyIsTriedAndOpensThePage() throws {
        let message = Self.message()
        var engine = F.engine([F.stored(message)])
        #expect(EngineSealTests.requests(engine.handle(.tick(F.now(1)))).isEmpty)
        #expect(
            engine.read(message.id, now: F.now(1))?.pages[0].sets.first?.locks.first?.reason
                == .waitsForRelease("finale", arrived: false))
        #expect(EngineSealTests.requests(Self.release(&engine, "other", key: Self.key, at: 2)).isEmpty)
        let request = try #require(
            EngineSealTests.requests(Self.release(&engine, "finale", key: Self.key, at: 3)).first)
        #expect(request.secret == "chest-v2|release=finale:\(Self.key)")
        #expect(request.cell == nil && request.pin == nil)
        // Hearing it again (the broker resends a retained release on each reconnect) asks nothing more.
        #expect(EngineSealTests.requests(Self.release(&engine, "finale", key: Self.key, at: 4)).isEmpty)
        let opened = engine.handle(.keyDerived(request, .opened(Self.content), F.now(5)))
        #expect(opened.unlocks == [1])
        #expect(engine.read(message.id, now: F.now(5))?.pages[0].text == Self.content.text)
    }

    @Test func aMessageArrivingAfterTheReleaseIsTriedAtOnce() throws {
        var engine = F.engine([])
        _ = Self.release(&engine, "finale", key: Self.key, at: 1)
        let message = Self.message()
        let effects = engine.handle(.loaded([F.stored(message)], refused: [], F.now(2)))
        #expect(EngineSealTests.requests(effects).count == 1)
    }

    @Test func aWrongKeyOpensNothingAndAReleaseWaitsForTheSetsOtherLocks() throws {
        let later = F.now(100).wall
        let message = Self.message(setA: [.release("finale"), .time(later)])
        var engine = F.engine([F.stored(message)])
        let request = try #require(
            EngineSealTests.requests(Self.release(&engine, "finale", key: Self.key, at: 1)).first)
        #expect(engine.handle(.keyDerived(request, .wrong, F.now(2))).unlocks.isEmpty)
        #expect(engine.entries[message.id]?.state.openPages.isEmpty == true)
        let retry = try #require(
            EngineSealTests.requests(
                Self.release(&engine, "finale", key: ReleaseKey(bytes: [UInt8](repeating: 8, count: 32)), at: 3)
            ).first)
        // The key opens, but the time lock does not hold yet: the page waits for it.
        #expect(engine.handle(.keyDerived(retry, .opened(Self.content), F.now(4))).unlocks.isEmpty)
        #expect(engine.handle(.tick(F.now(101))).unlocks == [1])
    }
}
