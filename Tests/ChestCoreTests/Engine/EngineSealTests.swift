import ChestIO
import Foundation
import Testing

@testable import ChestCore

private typealias F = CoreFixture

/// The engine's side of format 2, with the seal worker played by the test: which derivation it asks for, when,
/// and what it does with the answer (docs/DESIGN.md "Sealed pages").
@Suite struct EngineSealTests {
    static let target = F.tower
    static let radius = 20.0
    static let grid = CellGrid(center: target, radius: radius)
    static let content = SealedContent(text: "Under the old oak.", a: SearchArea(center: target, radius: radius))
    static let slot = KeySlot.sealed(
        salt: [UInt8](repeating: 1, count: 16), cost: SealCost.Level.interactive.cost,
        wrapped: [UInt8](repeating: 2, count: 72))
    static let ciphertext = [UInt8](repeating: 3, count: 296)

    static func message(setA: [Lock] = [.sealedLocation(grid)], setB: [Lock] = []) -> Message {
        var slots: [LockSetName: KeySlot] = [.a: slot]
        if !setB.isEmpty {
            slots[.b] = setB.contains(where: \.isSecret) ? slot : .guarded(key: [UInt8](repeating: 4, count: 32))
        }
        return F.message(pages: [
            Page(text: "", setA: setA, setB: setB, sealed: SealedPage(ciphertext: ciphertext, slots: slots))
        ])
    }

    static func requests(_ effects: [Engine.Effect]) -> [KeyRequest] {
        effects.compactMap { if case let .deriveKey(request) = $0 { request } else { nil } }
    }

    /// The derivation starts at the first fix in the cell (issue 62: the key is on its way two fixes before a place
    /// can be reached), yet a key that comes at once opens nothing before the third fix.
    @Test func aCellIsAskedAtTheFirstFixInItAndOpensOnTheThirdFix() throws {
        let message = Self.message()
        var engine = F.engine([F.stored(message)])
        let first = Self.requests(engine.handle(.fix(F.fix(at: 1, Self.target), F.now(1))))
        let request = try #require(first.first)
        #expect(first.count == 1)
        #expect(request.secret == SealSecret.secret(cell: Self.grid.cell(of: Self.target), pin: nil))
        #expect(request.slot == Self.slot && request.ciphertext == Self.ciphertext)
        // The point is known once the key opens; one fix so far counts, not enough.
        let opened = engine.handle(.keyDerived(request, .opened(Self.content), F.now(1.1)))
        #expect(opened.unlocks.isEmpty)
        #expect(engine.entries[message.id]?.state.openPages.isEmpty == true)
        // The second fix asks nothing more and opens nothing; the third opens the page.
        let second = engine.handle(.fix(F.fix(at: 2, Self.target), F.now(2)))
        #expect(Self.requests(second).isEmpty && second.unlocks.isEmpty)
        #expect(engine.entries[message.id]?.state.openPages.isEmpty == true)
        let third = engine.handle(.fix(F.fix(at: 3, Self.target), F.now(3)))
        #expect(third.unlocks == [1])
        #expect(engine.read(message.id, now: F.now(3))?.pages[0].text == "Under the old oak.")
        #expect(engine.entries[message.id]?.state.openPages.first?.content == Self.content)
    }

    /// Format 3: a random grid over a declared area, a `cells` slot; the secret names format 3, the reader asks
    /// nothing outside the area, and two places on one grid ask for the same derivation (the worker runs it once).
    @Test func formatThreeAsksWithinTheAreaOnlyAndPlacesOnOneGridShareADerivation() throws {
        var generator = SeededGenerator(seed: 1)
        let area = SearchArea(center: Self.target, radius: 1000)
        let grid = CellGrid(area: area, radius: Self.radius, using: &generator)
        let slot = KeySlot.cells(
            salt: [UInt8](repeating: 5, count: 16), cost: SealCost.Level.interactive.cost,
            wrapped: [[UInt8]](repeating: [UInt8](repeating: 6, count: 72), count: 4))
        let messages = (1...2).map { index in
            F.message(
                UInt8(index),
                pages: [
                    Page(
                        text: "", setA: [.sealedLocation(grid)],
                        sealed: SealedPage(ciphertext: Self.ciphertext, slots: [.a: slot], version: 3))
                ])
        }
        var engine = F.engine(messages.map { F.stored($0) })
        let outside = F.north(of: Self.target, metres: 3000)
        for second in 1...4 {
            #expect(
                Self.requests(engine.handle(.fix(F.fix(at: Double(second), outside), F.now(Double(second))))).isEmpty,
                "a cell outside the search area was asked for")
        }
        let requests = Self.requests(engine.handle(.fix(F.fix(at: 5, Self.target), F.now(5))))
        #expect(requests.count == 2)
        #expect(requests.allSatisfy { $0.secret == "chest-v3|cell=\(grid.cell(of: Self.target))" && $0.version == 3 })
        #expect(requests[0].derivation == requests[1].derivation && requests[0].derivation != nil)
        #expect(
            requests[0].slotData.hasPrefix("chest-v3|key|") && requests[0].contentData.hasPrefix("chest-v3|content|"))
    }

    @Test func aFailedCellIsRememberedAndNeverTriedAgain() throws {
        let message = Self.message()
        var engine = F.engine([F.stored(message)])
        let elsewhere = F.north(of: Self.target, metres: 500)
        let request = try #require(Self.requests(engine.handle(.fix(F.fix(at: 1, elsewhere), F.now(1)))).first)
        let failed = engine.handle(.keyDerived(request, .wrong, F.now(2.1)))
        let state = try #require(failed.persisted.last)
        #expect(state.seal.hasTried(Self.grid.cell(of: elsewhere), for: LockKey(page: 1, set: .a, kind: .location)))
        // Leave and come back: the same cell is not tried again, in this run or the next.
        for second in 3...6 {
            _ = engine.handle(
                .fix(F.fix(at: Double(second), F.north(of: Self.target, metres: 2000)), F.now(Double(second))))
        }
        for second in 7...10 {
            #expect(
                Self.requests(engine.handle(.fix(F.fix(at: Double(second), elsewhere), F.now(Double(second))))).isEmpty)
        }
        var restarted = F.engine([StoredMessage(message: message, state: state, chest: .regular, sentByYou: false)])
        for second in 1...4 {
            #expect(
                Self.requests(restarted.handle(.fix(F.fix(at: Double(second), elsewhere), F.now(Double(second)))))
                    .isEmpty)
        }
        #expect(restarted.status(now: F.now(5)).sealed?.cellsTried == 1)
    }

    /// The cell is about 2r wide: its corners are outside the radius. The key opens there, the rule does not.
    @Test func aFixInTheCellsCornerOutsideTheRadiusDoesNotOpen() throws {
        let message = Self.message()
        var engine = F.engine([F.stored(message)])
        let (x, y) = Self.grid.project(Self.target)
        // Walk the grid's metres back to a coordinate: 0.45 w east and north of the target.
        let corner = Coordinate(
            latitude: (y + 0.45 * Self.grid.width) / Coordinate.earthRadius * 180 / .pi,
            longitude: Double(Self.grid.referenceLongitude)
                + (x + 0.45 * Self.grid.width)
                / (Coordinate.earthRadius * cos(Double(Self.grid.referenceLatitude) * .pi / 180)) * 180 / .pi)
        #expect(Self.grid.cell(of: corner) == Self.grid.cell(of: Self.target))
        #expect(corner.distance(to: Self.target) > Self.radius)
        let request = try #require(Self.requests(engine.handle(.fix(F.fix(at: 1, corner, eph: 3), F.now(1)))).first)
        _ = engine.handle(.keyDerived(request, .opened(Self.content), F.now(2.1)))
        for second in 3...8 {
            #expect(
                engine.handle(.fix(F.fix(at: Double(second), corner, eph: 3), F.now(Double(second)))).unlocks.isEmpty)
        }
        // The read never gives a distance or a bearing.
        let reason = engine.read(message.id, now: F.now(8))?.pages[0].sets[0].locks[0].reason
        #expect(reason.map { $0.text(timeZone: .current, now: Date()) }?.contains("away") == false)
    }

    @Test func aPINWithAPlaceIsKeptUncountedAndTriedWithEachNewCell() throws {
        let message = Self.message(setA: [.sealedLocation(Self.grid), .sealedPIN])
        var engine = F.engine([F.stored(message)])
        // No PIN yet: a cell is not tried.
        _ = engine.handle(.fix(F.fix(at: 1, Self.target), F.now(1)))
        #expect(Self.requests(engine.handle(.fix(F.fix(at: 2, Self.target), F.now(2)))).isEmpty)
        let kept = engine.handle(.pin(message.id, page: nil, pin: "4821", F.now(3)))
        #expect(kept.pinResults == [.kept])
        #expect(engine.entries[message.id]?.state.pin.wrong == 0)
        let request = try #require(Self.requests(kept).first)
        #expect(request.secret == "chest-v2|cell=\(Self.grid.cell(of: Self.target))|pin=4821")
        _ = engine.handle(.keyDerived(request, .opened(Self.content), F.now(3.1)))
        #expect(engine.handle(.fix(F.fix(at: 3, Self.target), F.now(3.2))).unlocks == [1])
    }

    @Test func aPINAloneIsCountedDurablyThenTriedOnEachSlot() throws {
        let message = Self.message(setA: [.sealedPIN])
        var engine = F.engine([F.stored(message)])
        let attempt = engine.handle(.pin(message.id, page: nil, pin: "1111", F.now(1)))
        #expect(Self.requests(attempt).isEmpty)
        #expect(attempt.contains(.recordAttempts(message.id, engine.entries[message.id]!.state.pin)))
        let request = try #require(Self.requests(engine.handle(.attemptsRecorded(message.id, .done, F.now(1)))).first)
        #expect(request.secret == "chest-v2|pin=1111")
        let wrong = engine.handle(.keyDerived(request, .wrong, F.now(1.1)))
        #expect(wrong.pinResults == [.wrong(wrong: 1, refusedUntil: nil)])
        _ = engine.handle(.pin(message.id, page: nil, pin: "4821", F.now(2)))
        let right = try #require(Self.requests(engine.handle(.attemptsRecorded(message.id, .done, F.now(2)))).first)
        let accepted = engine.handle(.keyDerived(right, .opened(SealedContent(text: "PIN page")), F.now(2.1)))
        #expect(accepted.pinResults == [.accepted(latched: [LockKey(page: 1, set: .a, kind: .pin)], opened: [1])])
        #expect(engine.read(message.id, now: F.now(3))?.pages[0].text == "PIN page")
    }

    @Test func theLedgerKeepsTheCountAcrossANewImport() {
        let message = Self.message(setA: [.sealedPIN])
        var attempts = PINAttempts()
        attempts.wrong = 6
        attempts.refusedUntil = F.t0.addingTimeInterval(60)
        var engine = Engine(gpsServer: "x")
        _ = engine.handle(.attemptsRestored([message.id: attempts]))
        _ = engine.handle(.loaded([F.stored(message)], refused: [], F.now(0)))
        #expect(
            engine.handle(.pin(message.id, page: nil, pin: "4821", F.now(1))).pinResults
                == [.refused(until: F.t0.addingTimeInterval(60))])
    }

    @Test func aGuardedSetOpensOnceItsLocksHoldAndItsContentIsRead() throws {
        let message = Self.message(setB: [.time(F.t0.addingTimeInterval(10))])
        var engine = F.engine([F.stored(message)])
        let due = engine.handle(.tick(F.now(11)))
        let request = try #require(Self.requests(due).first)
        #expect(request.secret == nil && request.set == .b)
        #expect(due.unlocks.isEmpty)
        let opened = engine.handle(.keyDerived(request, .opened(SealedContent(text: "guarded")), F.now(11.1)))
        #expect(opened.unlocks == [1])
        #expect(engine.read(message.id, now: F.now(12))?.pages[0].protection == .guarded)
    }

    @Test func protectionIsTheWeakestSet() {
        // A format 2 place alone can be recovered from its grid; with a PIN in its set, the PIN still protects.
        #expect(Self.message().pages[0].protection == .recoverable)
        #expect(Self.message(setA: [.sealedLocation(Self.grid), .sealedPIN]).pages[0].protection == .sealed)
        var generator = SeededGenerator(seed: 2)
        let formatThree = CellGrid(
            area: SearchArea(center: Self.target, radius: 1000), radius: Self.radius, using: &generator)
        #expect(Self.message(setA: [.sealedLocation(formatThree)]).pages[0].protection == .sealed)
        #expect(Self.message(setB: [.weather(.clear)]).pages[0].protection == .guarded)
        #expect(Page(text: "x", setA: [.pin(hash: "h")]).protection == .unsealed)
    }
}
