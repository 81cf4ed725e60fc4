import Foundation
import Testing

@testable import ChestCore

/// A message's share of the reader (docs/SECURITY.md): a file asking too much Argon2id of one fix is set aside with
/// the reason; under the budget, one sender's cells wait behind others' and hold at most a share of the queue.
@Suite struct SealBudgetTests {
    typealias F = CoreFixture
    static let area = SearchArea(center: F.tower, radius: 1000)

    /// A page whose set A lays a place on its own grid (salt `salt`) at `cost`, in `area`; with `second`, set B
    /// another on a grid of that salt.
    static func page(
        salt: UInt8, cost: SealCost, area: SearchArea = area, second: UInt8? = nil,
        secondArea: SearchArea? = nil
    ) -> Page {
        func set(_ salt: UInt8, _ area: SearchArea) -> (Lock, KeySlot) {
            var generator = SeededGenerator(seed: UInt64(salt))
            return (
                .sealedLocation(CellGrid(area: area, radius: 30, using: &generator)),
                .cells(
                    salt: [UInt8](repeating: salt, count: 16), cost: cost,
                    wrapped: [[UInt8]](repeating: [UInt8](repeating: 6, count: 72), count: 4))
            )
        }
        let a = set(salt, area)
        let b = second.map { set($0, secondArea ?? area) }
        var slots: [LockSetName: KeySlot] = [.a: a.1]
        slots[.b] = b?.1
        return Page(
            text: "", setA: [a.0], setB: b.map { [$0.0] } ?? [],
            sealed: SealedPage(ciphertext: [UInt8](repeating: 3, count: 296), slots: slots, version: 3))
    }

    @Test func tenGridsAtTheCapOverOneAreaAreSetAsideWithTheReason() throws {
        // Five pages (the most a message has), two places each, every one on its own grid.
        let hostile = F.message(
            1, pages: (1...5).map { Self.page(salt: $0, cost: SealCost(passes: 4, memory: 1 << 30), second: $0 + 100) })
        let problem = try #require(SealBudget.problem(hostile.pages))
        #expect(
            problem.contains(
                "ask up to 10 Argon2id runs (40 GiB-passes) of a reader for one fix, over the budget of 24"),
            "\(problem)")
        // As chestd reads it: refused with that reason, so it goes to rejected/ with it.
        #expect(throws: MessageFormatError.overSealBudget(problem)) {
            try MessageFile.decode(MessageFile.encode(hostile))
        }
    }

    @Test func honestMessagesAreWithinTheBudget() {
        // Three cell widths and a PIN set in one area at the default costs.
        // The budget's unit: eight grids at format 3's first place cost (`SealBudget.perFix`), heavier than today's.
        let place = SealBudget.unit
        var pages = (1...3).map { Self.page(salt: $0, cost: place) }
        pages.append(Self.page(salt: 4, cost: SealCost.Secret.placeAndPIN.cost))
        #expect(SealBudget.problem(pages) == nil)
        // Places on ten grids far apart: a fix is in one area at a time.
        let apart = (1...5).map { index in
            Self.page(
                salt: UInt8(index), cost: SealCost(passes: 4, memory: 1 << 30),
                area: SearchArea(center: Coordinate(latitude: 40 + Double(index), longitude: 8), radius: 20_000))
        }
        #expect(SealBudget.problem(apart) == nil)
        // Ten default areas 150 km apart over a region, each overlapping its neighbours: a fix is in four at most.
        let spread = (0..<5).map { index in
            func area(_ row: Double) -> SearchArea {
                SearchArea(
                    center: Coordinate(latitude: 44 + row * 1.35, longitude: 4 + Double(index) * 1.9), radius: 110_000)
            }
            return Self.page(
                salt: UInt8(index + 1), cost: place, area: area(0), second: UInt8(index + 101), secondArea: area(1))
        }
        #expect(SealBudget.problem(spread) == nil)
        // Ten grids around a ring, no centre inside all of them, all holding the ring's middle.
        let ring = (0..<5).map { index in
            func area(_ angle: Double) -> SearchArea {
                SearchArea(
                    center: Coordinate(latitude: 46 + 0.8 * cos(angle), longitude: 8 + 1.1 * sin(angle)),
                    radius: 110_000)
            }
            let angle = Double(index) * 2 * Double.pi / 10
            return Self.page(
                salt: UInt8(index + 1), cost: place, area: area(angle), second: UInt8(index + 101),
                secondArea: area(angle + Double.pi))
        }
        #expect(SealBudget.problem(ring) != nil)
        // Eight grids at the budget's unit cost: the budget itself.
        #expect(SealBudget.problem((1...4).map { Self.page(salt: $0, cost: place, second: $0 + 100) }) == nil)
        let nine =
            (1...4).map { Self.page(salt: $0, cost: place, second: $0 + 100) } + [Self.page(salt: 9, cost: place)]
        #expect(SealBudget.problem(nine) != nil)
    }

    /// A format 2 grid states no area, so a reader tries it at every fix wherever it is: a file of many of them is
    /// weighed as if they all overlapped, even with their places far apart.
    @Test func formatTwoGridsCountWhereverTheReaderIs() {
        func page(_ salt: UInt8, cost: SealCost, latitude: Double) -> Page {
            func set(_ salt: UInt8) -> (Lock, KeySlot) {
                (
                    .sealedLocation(CellGrid(center: Coordinate(latitude: latitude, longitude: 8), radius: 30)),
                    .cells(
                        salt: [UInt8](repeating: salt, count: 16), cost: cost,
                        wrapped: [[UInt8]](repeating: [UInt8](repeating: 6, count: 72), count: 4))
                )
            }
            let a = set(salt)
            let b = set(salt + 100)
            return Page(
                text: "", setA: [a.0], setB: [b.0],
                sealed: SealedPage(
                    ciphertext: [UInt8](repeating: 3, count: 296), slots: [.a: a.1, .b: b.1], version: 2))
        }
        let cap = SealCost(passes: 4, memory: 1 << 30)
        let hostile = (1...5).map { page($0, cost: cap, latitude: 40 + 2 * Double($0)) }
        let problem = SealBudget.problem(hostile)
        #expect(problem?.contains("ask up to 10 Argon2id runs (40 GiB-passes)") == true, "\(problem ?? "nil")")
        // A format 2 quest of four pages at the unit cost is within the budget, one of five over it.
        // The budget's unit: eight grids at format 3's first place cost (`SealBudget.perFix`), heavier than today's.
        let place = SealBudget.unit
        #expect(SealBudget.problem((1...4).map { page($0, cost: place, latitude: 46) }) == nil)
        #expect(SealBudget.problem((1...5).map { page($0, cost: place, latitude: 46) }) != nil)
        // Beside a format 3 area, a format 2 grid counts there too.
        let mixed =
            (1...4).map { Self.page(salt: $0, cost: place, second: $0 + 100) } + [
                page(9, cost: SealCost.Level.interactive.cost, latitude: 10)
            ]
        #expect(SealBudget.problem(mixed) != nil)
    }

    static func request(_ owner: UInt8, _ index: Int) -> (KeyRequest, SlotRef) {
        let cell = Cell(x: Int64(index), y: Int64(owner))
        let request = KeyRequest(
            id: F.id(owner), page: 1, set: .a, secret: "chest-v3|cell=\(cell)",
            slot: .cells(salt: [owner], cost: SealCost.Level.interactive.cost, wrapped: []),
            ciphertext: [], cell: cell, pin: nil, version: 3)
        return (request, SlotRef(id: F.id(owner), page: 1, set: .a))
    }

    @Test func aSenderFilingTenCellsAFixCannotKeepAnotherWaiting() {
        var queue = CellQueue()
        var clock = 0.0
        var honestWaits: [Int] = []
        var served: [String: Int] = [:]
        for round in 0..<20 {
            // Each fix: the hostile sender files ten new cells, all of them where the reader is; the honest one, one.
            for index in 0..<10 {
                let (request, slot) = Self.request(2, round * 10 + index)
                _ = queue.add(
                    request, slot: slot, derivation: request.derivation!, cell: request.cell!, pins: [round],
                    owner: "mallory")
            }
            let (honest, honestSlot) = Self.request(1, round)
            _ = queue.add(
                honest, slot: honestSlot, derivation: honest.derivation!, cell: honest.cell!, pins: [round],
                owner: "organiser")
            // Two cells' time with the worker per fix, as at the cap's cost.
            var dispatched = 0
            while dispatched < 2,
                case let (requests, _) = queue.next(at: clock, isLive: { _, _ in true }, isCurrent: { _ in true }),
                let request = requests.first
            {
                clock += 2
                dispatched += 1
                let owner = request.id == F.id(1) ? "organiser" : "mallory"
                served[owner, default: 0] += 1
                if owner == "organiser" { honestWaits.append(round - Int(request.cell!.x)) }
                _ = queue.answered(request.derivation!, slot: SlotRef(id: request.id, page: 1, set: .a), at: clock)
            }
        }
        // The honest cell is never more than a fix late, and the worker's time is shared.
        #expect(served["organiser"] == 20, "\(served)")
        #expect(honestWaits.allSatisfy { $0 <= 1 }, "\(honestWaits)")
        // The hostile sender holds at most its share of the queue's memory.
        #expect(queue.waiting.values.filter { $0.owners.contains("mallory") }.count <= CellQueue.perOwner)
    }

    /// Through the engine: a message of eight grids (within the budget) and one of one grid, from two senders, over
    /// the cells the reader settles in. Each time the reader settles, the light sender's cell goes to the worker
    /// before the heavy sender's second: the share is the sender key's, and the heavy message's cells wait.
    @Test func theEngineServesALightSendersCellBeforeAHeavyMessagesOthers() throws {
        var generator = SeededGenerator(seed: 36)
        let area = SearchArea(center: F.tower, radius: 5000)
        func sealed(_ id: UInt8, key: UInt8, grids: Int) -> Message {
            F.sealedGrids(
                id, sender: key, grids: grids, area: area, cost: SealCost.Level.interactive.cost, saltFill: 0,
                using: &generator)
        }
        let heavy = sealed(1, key: 1, grids: 8)
        let light = sealed(2, key: 2, grids: 1)
        #expect(SealBudget.problem(heavy.pages) == nil, "eight grids at a cheap cost are within the budget")
        var engine = F.engine([F.stored(heavy), F.stored(light)])
        var clock = 0.0
        for stop in 0..<3 {
            // The reader settles 200 m further north each time: the first fix files a cell per grid, nine in all, and
            // the worker has the first of them; the second files them again, which changes nothing.
            let here = F.north(of: F.tower, metres: 200 * Double(stop))
            clock += 1
            var dispatched = Self.derivations(engine.handle(.fix(F.fix(at: clock, here), F.now(clock))))
            clock += 1
            dispatched += Self.derivations(engine.handle(.fix(F.fix(at: clock, here), F.now(clock))))
            var order: [MessageID] = []
            // The worker takes half a second a cell and finds every key wrong: fast enough that the heavy sender stays
            // within its share (CellQueue.share, tested in EngineSenderShareTests), so what is seen here is the order.
            while let request = dispatched.first {
                order.append(request.id)
                clock += 0.5
                dispatched = Self.derivations(engine.handle(.keyDerived(request, .wrong, F.now(clock))))
                if order.count == 9 { break }
            }
            let lightAt = try #require(order.firstIndex(of: light.id), "stop \(stop): \(order)")
            #expect(
                lightAt <= 1,
                "stop \(stop): the light sender's cell waited behind \(lightAt) of the heavy one's: \(order)")
        }
    }

    static func derivations(_ effects: [Engine.Effect]) -> [KeyRequest] {
        effects.compactMap { if case let .deriveKey(request) = $0 { request } else { nil } }
    }

    @Test func aFullQueueForgetsTheCellsOfWhoeverHoldsTheMost() {
        var queue = CellQueue()
        for index in 0..<3 {
            let (request, slot) = Self.request(1, index)
            _ = queue.add(
                request, slot: slot, derivation: request.derivation!, cell: request.cell!, pins: [], owner: "organiser")
        }
        for owner in 2...6 {
            for index in 0..<(CellQueue.perOwner + 10) {
                let (request, slot) = Self.request(UInt8(owner), index)
                _ = queue.add(
                    request, slot: slot, derivation: request.derivation!, cell: request.cell!, pins: [index],
                    owner: "sender \(owner)")
            }
        }
        #expect(queue.waiting.count <= CellQueue.limit)
        #expect(
            queue.waiting.values.filter { $0.owners.contains("organiser") }.count == 3, "the small sender's cells stay")
        for owner in 2...6 {
            #expect(queue.waiting.values.filter { $0.owners.contains("sender \(owner)") }.count <= CellQueue.perOwner)
        }
    }
}
