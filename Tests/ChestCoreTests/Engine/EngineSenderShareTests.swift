import Foundation
import Testing

@testable import ChestCore

/// One sender, one share (docs/SECURITY.md "A message's share of the reader", issue 45): all the messages of one
/// sender together have at most `CellQueue.share` of the seal worker's time over a walk, however many files it sent,
/// each within the budget; another sender's message still has its own share. The walk and the worker are simulated:
/// time is the engine's input, and each derivation takes `seconds` of it.
@Suite struct EngineSenderShareTests {
    typealias F = CoreFixture
    /// A cell at the budget's unit cost (4 passes, 768 MiB) on a slow reader: enough that one sender's grids ask
    /// more than the worker can give on the walk.
    static let seconds = 3.0
    /// The walk: four minutes at 1.4 m/s, a fix a second, through areas that hold every fix.
    static let walk = 240
    static let area = SearchArea(center: F.tower, radius: 2000)

    /// A file within the budget at its edge: four pages of two places, each on its own grid at `SealBudget.unit`.
    static func file(_ id: UInt8, sender: UInt8, grids: Int = 8, using generator: inout SeededGenerator) -> Message {
        F.sealedGrids(
            id, sender: sender, grids: grids, area: area, cost: SealBudget.unit, saltFill: sender, using: &generator)
    }

    /// Walks the reader north through the areas, answering each derivation `seconds` after it was handed over (every
    /// key wrong), and returns the worker's seconds given to each sender (its key's first byte) and their derivations.
    static func walk(_ messages: [Message]) -> (seconds: [UInt8: Double], derivations: [UInt8: Int]) {
        let senders = Dictionary(uniqueKeysWithValues: messages.map { ($0.id, $0.seal!.publicKey[0]) })
        var engine = F.engine(messages.map { F.stored($0) })
        var clock = 0.0
        var doneAt = 0.0
        var flight: [KeyRequest] = []
        var given: [UInt8: Double] = [:]
        var derivations: [UInt8: Int] = [:]
        func take(_ effects: [Engine.Effect]) {
            let requests = effects.compactMap { if case let .deriveKey(request) = $0 { request } else { nil } }
            guard let first = requests.first else { return }
            // The worker holds one cell at a time; the engine hands over all the sets waiting for it at once.
            precondition(flight.isEmpty, "a second cell handed over while one was with the worker")
            flight = requests
            doneAt = clock + seconds
            given[senders[first.id]!, default: 0] += seconds
            derivations[senders[first.id]!, default: 0] += 1
        }
        for second in 1...walk {
            while !flight.isEmpty, doneAt <= Double(second) {
                clock = doneAt
                let answered = flight
                flight = []
                for request in answered { take(engine.handle(.keyDerived(request, .wrong, F.now(clock)))) }
            }
            clock = Double(second)
            let here = F.north(of: F.tower, metres: 1.4 * clock)
            take(engine.handle(.fix(F.fix(at: clock, here), F.now(clock))))
        }
        return (given, derivations)
    }

    /// The most one share grants over the walk: half of it (docs/SECURITY.md's "about half a core"), the bank a sender
    /// starts with, and the cell with the worker when the bank ran out.
    static let oneShare = 0.5 * Double(walk) + CellQueue.burst + seconds

    @Test(arguments: [2, 5])
    func allTheFilesOfOneSenderTogetherTakeOneShareAndAnotherSendersCellsAreAllTried(files: Int) {
        var generator = SeededGenerator(seed: 45)
        let hostile = (0..<files).map { Self.file(UInt8(10 + $0), sender: 66, using: &generator) }
        #expect(hostile.allSatisfy { SealBudget.problem($0.pages) == nil }, "each file is within the budget")
        let light = Self.file(1, sender: 77, grids: 2, using: &generator)
        let alone = Self.walk([light])
        let (given, derivations) = Self.walk(hostile + [light])
        let taken = given[66, default: 0]
        // Weighed per message, the hostile sender had the worker whenever the light one did not: 204 s of 240 with two
        // files, 201 s with five (129 s with its share, either way).
        #expect(
            taken <= Self.oneShare, "\(files) files of one sender took \(taken) s of the worker over \(Self.walk) s")
        // The share is given, not withheld: the sender's cells still have about half of the worker.
        #expect(taken >= 0.4 * Double(Self.walk), "\(taken) s")
        // The light sender lost at most the cell still waiting at the end.
        #expect(
            derivations[77, default: 0] >= alone.derivations[77, default: 0] - 1,
            "\(derivations[77, default: 0]) derivations for the light sender, \(alone.derivations[77, default: 0]) alone"
        )
    }

    @Test func anotherSendersFileAtTheBudgetHasAShareOfItsOwn() {
        var generator = SeededGenerator(seed: 46)
        let hostile = (0..<5).map { Self.file(UInt8(10 + $0), sender: 66, using: &generator) }
        let other = Self.file(1, sender: 88, using: &generator)
        let (given, _) = Self.walk(hostile + [other])
        #expect(given[66, default: 0] <= Self.oneShare, "\(given)")
        #expect(given[88, default: 0] <= Self.oneShare, "\(given)")
        // Two senders, two shares: each has about half the worker, five files or one (120 s each); the share is the
        // sender's, not one for all.
        #expect(given[88, default: 0] >= 0.4 * Double(Self.walk), "\(given)")
        #expect(given[66, default: 0] >= 0.4 * Double(Self.walk), "\(given)")
    }

    /// When fixes stop while the worker rests for a sender's share, the engine still asks to be woken when the share
    /// refills, and each tick then hands over the next cell: the last cells of a walk are tried, not left waiting for
    /// a fix that never comes.
    @Test func aRestingWorkerIsWokenWhenTheShareRefillsWithoutAFix() {
        var generator = SeededGenerator(seed: 7)
        let messages = (0..<2).map { Self.file(UInt8(10 + $0), sender: 3, using: &generator) }
        var engine = F.engine(messages.map { F.stored($0) })
        var clock = 0.0
        var flight: [KeyRequest] = []
        var wake: Date?
        func take(_ effects: [Engine.Effect]) {
            for effect in effects {
                if case let .deriveKey(request) = effect { flight.append(request) }
                if case let .wake(at) = effect { wake = at }
            }
        }
        // Sixty seconds of fixes; each cell takes `seconds`, answered as the next fix comes.
        for second in 1...60 {
            clock = Double(second)
            if !flight.isEmpty, Int(clock) % Int(Self.seconds) == 0 {
                let answered = flight
                flight = []
                for request in answered { take(engine.handle(.keyDerived(request, .wrong, F.now(clock)))) }
            }
            take(engine.handle(.fix(F.fix(at: clock, F.north(of: F.tower, metres: 1.4 * clock)), F.now(clock))))
        }
        // No more fixes: answer what is out, then only the wake-ups the engine asked for move time on.
        var tried = 0
        for _ in 0..<200 {
            if !flight.isEmpty {
                clock += Self.seconds
                let answered = flight
                flight = []
                tried += 1
                for request in answered { take(engine.handle(.keyDerived(request, .wrong, F.now(clock)))) }
                continue
            }
            guard engine.seal.cells.count > 0 else { break }
            guard let at = wake, at.timeIntervalSince(F.t0) > clock else {
                Issue.record("cells wait with the worker resting and no wake-up asked for at \(clock) s")
                return
            }
            clock = at.timeIntervalSince(F.t0)
            wake = nil
            take(engine.handle(.tick(F.now(clock))))
        }
        #expect(tried > 0, "the worker rested once the fixes stopped")
        #expect(engine.seal.cells.count == 0, "every waiting cell was tried: \(engine.seal.cells.count) left")
    }
}
