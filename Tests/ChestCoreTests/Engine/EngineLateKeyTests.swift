import Foundation
import Testing

@testable import ChestCore

private typealias F = CoreFixture

/// Sealed places whose key arrives late (docs/DESIGN.md "Late keys"): the engine keeps the fixes, files every cell
/// the reader's fixes could have earned a place in, and judges a revealed place on the fixes that were there, with
/// the seal worker played by the test and its answers as late as a busy laptop makes them.
@Suite struct EngineLateKeyTests {
    static let radius = 30.0
    static let area = SearchArea(center: F.tower, radius: 1000)
    static let ciphertext = [UInt8](repeating: 3, count: 296)

    /// A format 3 page hiding `place` on `grid`, and the worker's answer to any request for it.
    struct SealedPlace {
        var message: Message
        var grid: CellGrid
        var place: Coordinate
        var content: SealedContent {
            SealedContent(text: "found \(place)", a: SearchArea(center: place, radius: EngineLateKeyTests.radius))
        }

        init(_ index: UInt8, grid: CellGrid, place: Coordinate, salt: UInt8? = nil) {
            self.grid = grid
            self.place = place
            let slot = KeySlot.cells(
                salt: [UInt8](repeating: salt ?? index, count: 16), cost: SealCost.Level.interactive.cost,
                wrapped: [[UInt8]](repeating: [UInt8](repeating: 6, count: 72), count: 4))
            message = F.message(
                index,
                pages: [
                    Page(
                        text: "", setA: [.sealedLocation(grid)],
                        sealed: SealedPage(ciphertext: EngineLateKeyTests.ciphertext, slots: [.a: slot], version: 3))
                ])
        }

        /// What a real worker finds: the key of any cell the place's disk touches opens the page.
        func answer(_ request: KeyRequest) -> KeyResult {
            guard request.id == message.id, let cell = request.cell,
                grid.cells(touching: place, radius: EngineLateKeyTests.radius).contains(cell)
            else { return .wrong }
            return .opened(content)
        }
    }

    static func grid(seed: UInt64) -> CellGrid {
        var generator = SeededGenerator(seed: seed)
        return CellGrid(area: area, radius: radius, using: &generator)
    }

    /// The point `x`, `y` metres from the grid's origin, back on the globe.
    static func coordinate(on grid: CellGrid, x: Double, y: Double) -> Coordinate {
        Coordinate(
            latitude: y / Coordinate.earthRadius * 180 / .pi,
            longitude: Double(grid.referenceLongitude) + x / (Coordinate.earthRadius * grid.cosReference) * 180 / .pi)
    }

    /// `coordinate` moved `metres` east.
    static func east(of coordinate: Coordinate, metres: Double) -> Coordinate {
        Coordinate(
            latitude: coordinate.latitude,
            longitude: coordinate.longitude + metres
                / (Coordinate.earthRadius * .pi / 180 * cos(coordinate.latitude * .pi / 180)))
    }

    /// Feeds one fix a second from `start` and collects what the engine asks of the worker.
    static func walk(_ engine: inout Engine, _ positions: [Coordinate], from start: Double, asked: inout [KeyRequest])
        -> [Engine.Effect]
    {
        var effects: [Engine.Effect] = []
        for (offset, position) in positions.enumerated() {
            let second = start + Double(offset)
            let out = engine.handle(.fix(F.fix(at: second, position, eph: 4), F.now(second)))
            asked += EngineSealTests.requests(out)
            effects += out
        }
        return effects
    }

    /// Answers what the worker holds, one request at a time, each at `at`; collects the requests each answer lets go.
    static func answerAll(
        _ engine: inout Engine, _ asked: inout [KeyRequest], places: [SealedPlace], at seconds: Double,
        log: inout [KeyRequest]
    ) -> [Engine.Effect] {
        var effects: [Engine.Effect] = []
        var clock = seconds
        while true {
            while !asked.isEmpty {
                let request = asked.removeFirst()
                log.append(request)
                let result =
                    places.lazy.map { $0.answer(request) }.first { if case .opened = $0 { true } else { false } }
                    ?? .wrong
                let out = engine.handle(.keyDerived(request, result, F.now(clock)))
                asked += EngineSealTests.requests(out)
                effects += out
            }
            // A sender whose cell held the worker this long has spent its share (`CellQueue.share`): its next cells go
            // once time refilled it, handed over at a tick.
            guard !engine.seal.cells.waiting.isEmpty, clock < seconds + 3600 else { return effects }
            clock += 10
            let out = engine.handle(.tick(F.now(clock)))
            asked += EngineSealTests.requests(out)
            effects += out
        }
    }

    @Test func aKeyArriving10SecondsAfterTheReaderLeftOpensThePageAndSaysWhenThePlaceWasReached() throws {
        let place = SealedPlace(1, grid: Self.grid(seed: 11), place: F.tower)
        var engine = F.engine([F.stored(place.message)])
        var asked: [KeyRequest] = []
        // Three fixes in the place, then 10 s walking away north at 5 m/s.
        _ = Self.walk(&engine, [F.tower, F.tower, F.tower], from: 1, asked: &asked)
        let away = (1...10).map { F.north(of: F.tower, metres: 60 + 5 * Double($0)) }
        #expect(Self.walk(&engine, away, from: 4, asked: &asked).unlocks.isEmpty)
        #expect(!asked.isEmpty, "the place's cell was never asked for")
        var log: [KeyRequest] = []
        let opened = Self.answerAll(&engine, &asked, places: [place], at: 14.5, log: &log)
        let unlock = try #require(opened.unlockEvents.first)
        #expect(unlock.page == 1 && unlock.at == F.now(14.5).wall && unlock.reachedAt == F.now(3).wall)
        let line = String(decoding: ChestEvent.unlocked(unlock).line(emittedAt: F.now(15).wall), as: UTF8.self)
        #expect(line.contains("\"reachedAt\":\"\(ISO8601.string(F.now(3).wall))\""), "\(line)")
        #expect(try ChestJSON.decoder().decode(ChestEvent.self, from: Data(line.utf8)) == .unlocked(unlock))
        let page = try #require(engine.entries[place.message.id]?.state.openPages.first)
        #expect(page.reachedAt == F.now(3).wall, "reached at the third fix in the place")
        #expect(page.evidence?.reachedAt == F.now(3).wall)
        #expect(
            page.evidence?.fixes.map(\.time) == [1, 2, 3].map { F.t0.addingTimeInterval($0) },
            "the evidence is the three fixes that reached the place, not the last three")
        #expect(page.content?.text == place.content.text)
    }

    @Test func aKeyArrivingAfterTheFeedEndedOpensThePage() throws {
        let place = SealedPlace(1, grid: Self.grid(seed: 12), place: F.tower)
        var engine = F.engine([F.stored(place.message)])
        var asked: [KeyRequest] = []
        _ = Self.walk(&engine, [F.tower, F.tower, F.tower, F.tower], from: 1, asked: &asked)
        // The feed ends: no fix, then gpsd goes away.
        _ = engine.handle(.fix(F.fix(at: 5, nil, mode: .noFix), F.now(5)))
        _ = engine.handle(.gpsLink(connected: false, server: "localhost:2947", reason: "gpsd closed the connection"))
        var log: [KeyRequest] = []
        let opened = Self.answerAll(&engine, &asked, places: [place], at: 40, log: &log)
        #expect(opened.unlocks == [1])
        #expect(engine.entries[place.message.id]?.state.openPages.first?.reachedAt == F.now(3).wall)
    }

    /// A key that comes after the feed ended, as on a busy core at the end of a walk: the unlock's evidence has the
    /// trust and receiver of the fixes that reached the place, not "unverified" for a receiver gone by then (a hunt's
    /// receipt said so for the last team of a walk under load).
    @Test func aKeyArrivingAfterTheReceiverWentGivesTheTrustTheFixesHad() throws {
        let place = SealedPlace(1, grid: Self.grid(seed: 12), place: F.tower)
        var engine = F.engine([F.stored(place.message)])
        let pty = FixSource(kind: .pty, path: "/dev/pts/3", driver: "NMEA0183")
        _ = engine.handle(.receiver(pty, F.now(0)))
        var asked: [KeyRequest] = []
        _ = Self.walk(&engine, [F.tower, F.tower, F.tower, F.tower], from: 1, asked: &asked)
        _ = engine.handle(.receiver(nil, F.now(5)))
        _ = engine.handle(.gpsLink(connected: false, server: "localhost:2947", reason: "gpsd closed the connection"))
        #expect(engine.trust.level == .unverified, "no receiver now")
        var log: [KeyRequest] = []
        let opened = Self.answerAll(&engine, &asked, places: [place], at: 40, log: &log)
        #expect(opened.unlocks == [1])
        let evidence = try #require(engine.entries[place.message.id]?.state.openPages.first?.evidence)
        #expect(evidence.trust.level == .simulated, "\(evidence.trust)")
        #expect(evidence.source == pty)
    }

    @Test func twoFixesInThePlaceAreNotEnoughHoweverLateTheKey() {
        let place = SealedPlace(1, grid: Self.grid(seed: 13), place: F.tower)
        var engine = F.engine([F.stored(place.message)])
        var asked: [KeyRequest] = []
        // Two fixes inside, one 200 m away, two inside again: never three in a row.
        let positions = [F.tower, F.tower, F.north(of: F.tower, metres: 200), F.tower, F.tower]
        _ = Self.walk(&engine, positions, from: 1, asked: &asked)
        var log: [KeyRequest] = []
        #expect(Self.answerAll(&engine, &asked, places: [place], at: 30, log: &log).unlocks.isEmpty)
        // The place is known now: a third fix in a row, live, opens it.
        #expect(Self.walk(&engine, [F.tower], from: 6, asked: &asked).unlocks == [1])
    }

    @Test func aGapInTheFeedBreaksTheRun() {
        let place = SealedPlace(1, grid: Self.grid(seed: 14), place: F.tower)
        var engine = F.engine([F.stored(place.message)])
        var asked: [KeyRequest] = []
        _ = Self.walk(&engine, [F.tower, F.tower], from: 1, asked: &asked)
        // gpsd drops for a while and comes back: the two before and the one after are not consecutive.
        _ = engine.handle(.gpsLink(connected: false, server: "localhost:2947", reason: nil))
        _ = engine.handle(.gpsLink(connected: true, server: "localhost:2947", reason: nil))
        _ = Self.walk(&engine, [F.tower, F.north(of: F.tower, metres: 300)], from: 3, asked: &asked)
        var log: [KeyRequest] = []
        #expect(Self.answerAll(&engine, &asked, places: [place], at: 30, log: &log).unlocks.isEmpty)
    }

    /// The reader's three fixes straddle a cell border of the place: one in the western cell, two in the eastern.
    /// Whichever cell's key comes first reveals the place, and all three fixes count.
    @Test func fixesInANeighbouringCellOfThePlaceCount() throws {
        let grid = Self.grid(seed: 15)
        let (x, y) = grid.project(F.tower)
        let border = grid.offsetX + ((x - grid.offsetX) / grid.width).rounded(.down) * grid.width
        let centre = Self.coordinate(on: grid, x: border, y: y)
        let west = Self.coordinate(on: grid, x: border - 8, y: y)
        let east = Self.coordinate(on: grid, x: border + 8, y: y)
        #expect(grid.cell(of: west) != grid.cell(of: east))
        for cell in [grid.cell(of: west), grid.cell(of: east)] {
            let place = SealedPlace(1, grid: grid, place: centre)
            var engine = F.engine([F.stored(place.message)])
            var asked: [KeyRequest] = []
            _ = Self.walk(&engine, [west, east, east], from: 1, asked: &asked)
            let filed = asked.compactMap(\.cell) + engine.seal.cells.waiting.values.map(\.cell)
            #expect(Set(filed) == [grid.cell(of: west), grid.cell(of: east)], "both cells the fixes were in are filed")
            _ = Self.walk(
                &engine, (1...20).map { F.north(of: centre, metres: 300 + Double($0)) }, from: 4, asked: &asked)
            // The worker takes the one cell first, whatever the engine's order; its key alone decides.
            let first = try #require(
                asked.first { $0.cell == cell }
                    ?? engine.seal.cells.waiting.values.first { $0.cell == cell }?.requests.values.first)
            let opened = engine.handle(.keyDerived(first, place.answer(first), F.now(30)))
            #expect(opened.unlocks == [1], "the key of cell \(cell) did not open the page")
            #expect(engine.entries[place.message.id]?.state.openPages.first?.reachedAt == F.now(3).wall)
        }
    }

    /// The reader stands in one place of grid A while the worker is busy with grid B's cell, walks on to B's place,
    /// and only then does A's key come: A opens on the fixes of before, B on its own.
    @Test func aKeyForAnOlderCellArrivingWhileTheReaderIsInANewerOneOpensTheOlderPlace() throws {
        let first = SealedPlace(1, grid: Self.grid(seed: 21), place: F.tower)
        let secondPlace = F.north(of: F.tower, metres: 400)
        let second = SealedPlace(2, grid: Self.grid(seed: 22), place: secondPlace)
        var engine = F.engine([F.stored(first.message), F.stored(second.message)])
        var asked: [KeyRequest] = []
        _ = Self.walk(&engine, [F.tower, F.tower, F.tower], from: 1, asked: &asked)
        let path = (1...30).map { F.north(of: F.tower, metres: Double($0) * 10) }
        _ = Self.walk(&engine, path + [secondPlace, secondPlace, secondPlace], from: 4, asked: &asked)
        var log: [KeyRequest] = []
        let effects = Self.answerAll(&engine, &asked, places: [first, second], at: 60, log: &log)
        #expect(Set(effects.unlockEvents.map(\.id)) == [first.message.id, second.message.id])
        #expect(engine.entries[first.message.id]?.state.openPages.first?.reachedAt == F.now(3).wall)
        #expect(engine.entries[second.message.id]?.state.openPages.first?.reachedAt == F.now(36).wall)
    }

    /// 20 organisers' grids over one route: the reader stands in two spots, so 40 cells wait; one place was earned
    /// at the first spot. Every cell is asked once, nothing is dropped while the reader walks on for longer than
    /// the history's window, the newest go first, and the earned place opens when its key finally comes.
    @Test func aQueueOf40CellsFrom20GridsForgetsNothing() throws {
        let spotA = F.tower
        let spotB = Self.east(of: F.tower, metres: 300)
        let places = (1...20).map { index in
            SealedPlace(
                UInt8(index), grid: Self.grid(seed: 100 + UInt64(index)),
                place: index == 7 ? spotA : F.north(of: F.tower, metres: 700))
        }
        var engine = F.engine(places.map { F.stored($0.message) })
        var asked: [KeyRequest] = []
        _ = Self.walk(&engine, [spotA, spotA, spotA], from: 1, asked: &asked)
        _ = Self.walk(&engine, [spotB, spotB, spotB], from: 4, asked: &asked)
        #expect(engine.status(now: F.now(7)).sealed?.cellsWaiting == 40)
        #expect(engine.status(now: F.now(7)).sealed?.waitingSentence == "deriving the key of 40 cells, about 60 s")
        // Walk off, far outside every area, for twice the history's window: nothing more is asked.
        let far = F.north(of: F.tower, metres: 5000)
        let epochs = 2 * FixHistory.epochs
        _ = Self.walk(&engine, Array(repeating: far, count: epochs), from: 7, asked: &asked)
        #expect(asked.count == 1, "only one cell is with the worker at a time")
        var log: [KeyRequest] = []
        let opened = Self.answerAll(&engine, &asked, places: places, at: Double(7 + epochs), log: &log)
        // Each cell is asked once; only when the first cell asked (one of spot A's, while the reader stood there) is
        // the earned place's, does its page open first and its cell at B go unasked.
        let earnedFirst = log.first?.id == places[6].message.id
        #expect(
            log.count == (earnedFirst ? 39 : 40) && Set(log.map(\.derivation)).count == log.count,
            "\(log.count) asks, \(Set(log.map(\.derivation)).count) cells")
        // After the first (asked as the reader stood at A), spot B's cells, the newer, go before A's.
        let spots = log.dropFirst().map { request in
            places.first { $0.message.id == request.id }!.grid.cell(of: spotB) == request.cell
        }
        #expect(
            spots == Array(repeating: true, count: earnedFirst ? 19 : 20) + Array(repeating: false, count: 19),
            "\(spots)")
        #expect(opened.unlockEvents.map(\.id) == [places[6].message.id])
        #expect(engine.entries[places[6].message.id]?.state.openPages.first?.reachedAt == F.now(3).wall)
        #expect(engine.status(now: F.now(300)).sealed?.cellsWaiting == 0)
        #expect(engine.seal.history.entries.count <= FixHistory.epochs, "the fixes held for the queue are let go")
    }

    /// The history keeps its window and what waiting cells hold, nothing more (docs/BENCHMARKS.md "Sealed pages
    /// (format 3)" gives the bytes).
    @Test func theKeptFixesAreBounded() {
        let memory = Engine.keptFixesMemory
        print(
            "kept fixes: \(memory.bytesPerFix) bytes a fix, window \(memory.window), at most \(memory.mostPinned) pinned"
        )
        #expect(memory.bytesPerFix * (memory.window + memory.mostPinned) < 4 << 20)
        var history = FixHistory()
        for second in 0..<(3 * FixHistory.epochs) {
            _ = history.record(
                F.fix(at: Double(second)), epoch: Double(second), wall: F.now(Double(second)).wall, findings: .pty)
            if second == 10 { history.pin([10]) }
        }
        #expect(history.entries.count == FixHistory.epochs + 1 && history.entries.first?.sequence == 10)
        history.unpin([10])
        #expect(history.entries.count == FixHistory.epochs)
    }

    @Test func theCellTheReaderIsInGoesFirstThenTheNewest() {
        var queue = CellQueue()
        let slot = SlotRef(id: F.id(1), page: 1, set: .a)
        for index in 0..<5 {
            let cell = Cell(x: Int64(index), y: 0)
            let request = KeyRequest(
                id: F.id(1), page: 1, set: .a, secret: "chest-v3|cell=\(cell)",
                slot: .cells(salt: [1], cost: SealCost.Level.interactive.cost, wrapped: []),
                ciphertext: [], cell: cell, pin: nil, version: 3)
            _ = queue.add(request, slot: slot, derivation: request.derivation!, cell: cell, pins: [index])
        }
        var order: [Int64] = []
        while queue.count > 0 {
            let (requests, _) = queue.next(at: 0, isLive: { _, _ in true }, isCurrent: { $0.cell.x == 1 })
            let request = requests[0]
            order.append(request.cell!.x)
            _ = queue.answered(request.derivation!, slot: slot, at: 1)
        }
        #expect(order == [1, 4, 3, 2, 0])
    }

    @Test func aPlaceTheFixesNeverReachedStaysShut() {
        // The reader stands in the corner of the place's cell: that cell's key opens, but the place is 0.64 of a
        // cell (about 40 m) off, outside its 30 m.
        let grid = Self.grid(seed: 31)
        let (x, y) = grid.project(F.tower)
        let column = ((x - grid.offsetX) / grid.width).rounded(.down)
        let row = ((y - grid.offsetY) / grid.width).rounded(.down)
        let middle = (x: grid.offsetX + (column + 0.5) * grid.width, y: grid.offsetY + (row + 0.5) * grid.width)
        let place = SealedPlace(1, grid: grid, place: Self.coordinate(on: grid, x: middle.x, y: middle.y))
        let stood = Self.coordinate(on: grid, x: middle.x + 0.45 * grid.width, y: middle.y + 0.45 * grid.width)
        #expect(grid.cell(of: stood) == grid.cell(of: place.place) && stood.distance(to: place.place) > Self.radius)
        var engine = F.engine([F.stored(place.message)])
        var asked: [KeyRequest] = []
        _ = Self.walk(&engine, Array(repeating: stood, count: 10), from: 1, asked: &asked)
        var log: [KeyRequest] = []
        #expect(Self.answerAll(&engine, &asked, places: [place], at: 30, log: &log).unlocks.isEmpty)
        #expect(
            log.contains { if case .opened = place.answer($0) { true } else { false } },
            "the cell's key was never tried")
        #expect(engine.entries[place.message.id]?.state.openPages.isEmpty == true)
    }
}
