import Foundation
import Testing

@testable import ChestCore

private typealias F = CoreFixture
private typealias S = EngineScheduleTests

/// The hunt's start key in the engine (Engine+Start.swift, docs/HUNTS.md "The start key"), with the seal worker played
/// by the test: a format 6 page of the hunt asks for no key and opens nothing before the organiser's start key
/// arrives, even on a chest whose clock is long past the start; once it arrives, each key is asked with it, and the
/// page opens when its locks hold.
@Suite struct EngineStartKeyTests {
    static let startKey = HuntFixture.releaseKey(0x30)
    static let content = SealedContent(text: "The hunt is on.")

    /// A format 6 page of the hunt (sealed by the organiser's key 0x07…): a PIN's sealed slot, else a guard.
    static func message(_ n: UInt8 = 1, setA: [Lock] = []) -> Message {
        let slot: KeySlot =
            setA.contains(where: \.isSecret)
            ? .sealed(
                salt: [UInt8](repeating: 1, count: 16), cost: SealCost.Level.interactive.cost,
                wrapped: [UInt8](repeating: 2, count: 72))
            : .guarded(key: [UInt8](repeating: 4, count: 32))
        return F.message(
            n,
            pages: [
                Page(
                    text: "", setA: setA, setB: [],
                    sealed: SealedPage(
                        ciphertext: [UInt8](repeating: 3, count: 296), slots: [.a: slot],
                        version: MessageFile.startVersion))
            ])
    }

    /// The start key, published as the organiser's release `_start`.
    static func start(_ engine: inout Engine, signer: String = S.organiser, at seconds: Double) -> [Engine.Effect] {
        let envelope = HuntFixture.signed(
            HuntEnvelope(
                hunt: HuntFixture.huntID, id: UInt64(seconds * 10), sent: F.t0,
                release: HuntRelease(name: HuntRelease.startName, key: startKey)), key: signer)
        let topic = HuntTopic.release(hunt: HuntFixture.huntID, name: HuntRelease.startName)
        return engine.handle(.hunt(.heard(envelope, topic: topic, signatureValid: true), F.now(seconds)))
    }

    static var startBytes: [UInt8] { [UInt8](Data(base64Encoded: startKey.base64)!) }

    @Test func aPageOfTheHuntWaitsForTheStartKeyWhateverTheClockSays() throws {
        let message = Self.message()
        var (engine, loaded) = S.engine(S.join(starts: 10), [F.stored(message)])
        #expect(EngineSealTests.requests(loaded).isEmpty)
        // The clock is long past the start (a laptop whose clock runs fast, no GPS): still nothing is asked or opens.
        for seconds in [10.0, 100, 3600] {
            let ticked = engine.handle(.tick(F.now(seconds)))
            #expect(EngineSealTests.requests(ticked).isEmpty && ticked.persisted.allSatisfy(\.openPages.isEmpty))
        }
        #expect(engine.entries[message.id]?.state.openPages.isEmpty == true)
        #expect(engine.read(message.id, now: F.now(3600))?.awaitsStartKey == true)
        // A start key signed by anyone but the organiser is refused.
        #expect(EngineSealTests.requests(Self.start(&engine, signer: HuntFixture.key(9), at: 3601)).isEmpty)
        // The organiser's start key: the page's key is asked with it, and the page opens.
        let request = try #require(EngineSealTests.requests(Self.start(&engine, at: 3602)).first)
        #expect(request.start == Self.startBytes && request.id == message.id && request.secret == nil)
        _ = engine.handle(.keyDerived(request, .opened(Self.content), F.now(3603)))
        #expect(engine.entries[message.id]?.state.openPages.map(\.page) == [1])
        #expect(engine.read(message.id, now: F.now(3603))?.awaitsStartKey == nil)
    }

    @Test func theStartKeyBeforeTheClocksStartWaitsForTheClockAndLocksStillDecide() throws {
        let timed = Self.message(1, setA: [.time(F.t0.addingTimeInterval(200))])
        var (engine, _) = S.engine(S.join(starts: 100), [F.stored(timed)])
        // Heard early (the organiser ran chest hunt start before the schedule's start): the clock still holds the page.
        #expect(EngineSealTests.requests(Self.start(&engine, at: 50)).isEmpty)
        #expect(EngineSealTests.requests(engine.handle(.tick(F.now(150)))).isEmpty, "the time lock still waits")
        let request = try #require(EngineSealTests.requests(engine.handle(.tick(F.now(200)))).first)
        #expect(request.start == Self.startBytes)
        #expect(engine.handle(.keyDerived(request, .opened(Self.content), F.now(201))).unlocks == [1])
    }

    @Test func aPINBeforeTheStartKeyIsRefusedUncountedAndTriedWithItAfter() throws {
        let message = Self.message(setA: [.sealedPIN])
        var (engine, _) = S.engine(S.join(starts: 10), [F.stored(message)])
        let early = engine.handle(.pin(message.id, page: nil, pin: "4821", F.now(100)))
        guard case let .failed(why)? = early.pinResults.first else {
            Issue.record("a PIN before the start key was not refused: \(early)")
            return
        }
        #expect(why.contains("has not started") && why.contains("neither counted nor compared"))
        #expect(!early.contains { if case .recordAttempts = $0 { true } else { false } })
        #expect(engine.entries[message.id]?.state.pin.wrong == 0)
        _ = Self.start(&engine, at: 101)
        let counted = engine.handle(.pin(message.id, page: nil, pin: "4821", F.now(102)))
        #expect(counted.contains { if case .recordAttempts = $0 { true } else { false } })
        let request = try #require(
            EngineSealTests.requests(engine.handle(.attemptsRecorded(message.id, .done, F.now(102)))).first)
        #expect(request.pin == "4821" && request.start == Self.startBytes)
        #expect(engine.handle(.keyDerived(request, .opened(Self.content), F.now(103))).unlocks == [1])
    }

    @Test func theStartKeyKeptByTheChestOpensAfterARestart() throws {
        let message = Self.message()
        var engine = Engine(gpsServer: "localhost:2947")
        _ = engine.handle(.gpsLink(connected: true, server: "localhost:2947", reason: nil))
        _ = engine.handle(
            .hunt(
                .joined(
                    S.join(starts: 10), ledger: nil, releases: [HuntRelease.startName: Self.startKey],
                    outbox: 0, word: nil), F.now(0)))
        let loaded = engine.handle(.loaded([F.stored(message)], refused: [], F.now(20)))
        let request = try #require(EngineSealTests.requests(loaded).first)
        #expect(request.start == Self.startBytes)
    }
}
