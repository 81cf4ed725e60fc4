import Foundation
import Testing

@testable import ChestCLI
@testable import ChestCore
@testable import ChestSeal

/// The best attacks on sealed places from the files alone (docs/SECURITY.md "What a place is worth", "One sweep, many
/// places"), run for real at a cheap Argon2id cost: the lattice sweep (only cells with both indices even), shared by
/// every place laid on one grid. The figures `compose` prints (`BruteForce`) must agree with them within 1.5×.
@Suite struct SweepAttackTests {
    static let cheap = SealCost(passes: 1, memory: 64 << 10)

    /// Places sealed on one grid, each on its own page of its own message, as `compose` lays them.
    struct Laid {
        var grid: CellGrid
        var salt: [UInt8]
        var pages: [(id: MessageID, sealed: SealedPage, point: Coordinate)]
        var version: Int
    }

    /// The page as a reader gets it: sealed into a message by an organiser's identity, written as a `.locked` file's
    /// bytes and read back.
    static func throughAFile(_ page: Page, id: MessageID) throws -> SealedPage {
        // A directory of its own: tests running at once in this process would race for one identity's temporary file.
        let directory = NSTemporaryDirectory() + "/sweep-attack-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let identity = try Identity.loadOrCreate(at: directory + "/identity.json")
        let message = Sealer.seal(
            Message(id: id, title: "sweep", from: "Organiser", created: Date(), pages: [page]), with: identity)
        let read = try MessageFile.decode(MessageFile.encode(message))
        return try #require(read.pages.first?.sealed)
    }

    /// `count` places in `area` on one grid of key blocks of `block` (`CellGrid.keyBlock`), sealed in `version`.
    static func lay(
        _ count: Int, radius: Double, in area: SearchArea, pins: [String?], block: Int = 2,
        version: Int = MessageFile.baseVersion
    ) throws -> Laid {
        let grids = SealGrids()
        var generator = SystemRandomNumberGenerator()
        let first = grids.grid(for: area.center, radius: radius, declared: area, block: block)
        var laid = Laid(grid: first.grid, salt: first.salt, pages: [], version: version)
        for index in 0..<count {
            // Uniform in the disk, the place's centre inside the area, as compose requires.
            let distance = (area.radius - 1) * Double.random(in: 0..<1, using: &generator).squareRoot()
            let bearing = Double.random(in: 0..<(2 * .pi), using: &generator)
            let φ = area.latitude * .pi / 180
            let point = Coordinate(
                latitude: area.latitude + distance * cos(bearing) / Coordinate.earthRadius * 180 / .pi,
                longitude: area.longitude + distance * sin(bearing) / (Coordinate.earthRadius * cos(φ)) * 180 / .pi)
            let (grid, salt) = grids.grid(for: point, radius: radius, declared: area, block: block)
            #expect(grid == laid.grid && salt == laid.salt, "places in one area share its grid")
            let pin = pins[index % pins.count]
            var set = PageSealer.SetDraft(
                locks: [.sealedLocation(grid)] + (pin == nil ? [] : [.sealedPIN]),
                hidden: SearchArea(center: point, radius: radius), pin: pin)
            set.gridSalt = salt
            let id = MessageID(bytes: Sealer.randomBytes(16))
            let page = PageSealer.seal(
                text: "place \(index)", setA: set, setB: .init(locks: []), id: id, page: 1, cost: cheap,
                version: version)
            laid.pages.append((id, try throughAFile(page, id: id), point))
        }
        return laid
    }

    /// The lattice sweep: every cell with both indices divisible by `block` (even, for 2 × 2 key blocks) that a place
    /// in the area could touch, each derived once (with every PIN of `pinDigits`) and tried on every page's keys.
    /// Returns the derivations and the pages opened.
    static func sweep(_ laid: Laid, radius: Double, pinDigits: Int?, block: Int = 2) -> (
        derivations: Int, opened: Set<MessageID>
    ) {
        let grid = laid.grid
        let area = grid.area!
        let (cx, cy) = grid.project(area.center)
        let reach = area.radius + radius * 1.05 + 2
        func index(_ value: Double, _ offset: Double) -> Int64 { Int64(((value - offset) / grid.width).rounded(.down)) }
        let pins: [String?] =
            pinDigits.map { digits in
                (0..<Int(pow(10, Double(digits)))).map { String(format: "%0\(digits)d", $0) }
            } ?? [nil]
        var derivations = 0
        var opened = Set<MessageID>()
        for x in index(cx - reach, grid.offsetX)...index(cx + reach, grid.offsetX) where x % Int64(block) == 0 {
            for y in index(cy - reach, grid.offsetY)...index(cy + reach, grid.offsetY) where y % Int64(block) == 0 {
                // The cell's nearest point to the area's centre: cells no place in the area can touch are left out.
                let left = grid.offsetX + Double(x) * grid.width
                let bottom = grid.offsetY + Double(y) * grid.width
                let dx = max(left - cx, 0, cx - (left + grid.width))
                let dy = max(bottom - cy, 0, cy - (bottom + grid.width))
                guard (dx * dx + dy * dy).squareRoot() <= reach else { continue }
                for pin in pins {
                    let secret = SealSecret.secret(
                        cell: Cell(x: x, y: y), pin: pin, release: nil, version: laid.version)
                    let kek = PageSealer.derive(secret, salt: laid.salt, cost: cheap)!
                    derivations += 1
                    for page in laid.pages where !opened.contains(page.id) {
                        guard case let .cells(_, _, wrapped)? = page.sealed.slots[.a] else { continue }
                        let data = SealSecret.slotData(page.id, page: 1, set: .a, version: laid.version)
                        if wrapped.contains(where: { PageSealer.decrypt($0, key: kek, data: data) != nil }) {
                            opened.insert(page.id)
                        }
                    }
                }
            }
        }
        return (derivations, opened)
    }

    @Test func theLatticeSweepOfOneGridOpensEveryPlaceOnItForThePriceComposePrints() throws {
        let area = SearchArea(center: Coordinate(latitude: 47.3712, longitude: 8.5423), radius: 600)
        let laid = try Self.lay(12, radius: 30, in: area, pins: [nil])
        let brute = BruteForce(grid: laid.grid, pinDigits: nil, cost: Self.cheap)
        #expect(brute.searched == (brute.cells / 4).rounded(.up))
        let (derivations, opened) = Self.sweep(laid, radius: 30, pinDigits: nil)
        // One place in about 150 sits on a single row or column of cells and escapes the lattice.
        #expect(opened.count >= 10, "the lattice opened \(opened.count) of 12")
        let ratio = Double(derivations) / brute.guesses
        #expect(
            (1 / 1.5...1.5).contains(ratio),
            "the sweep took \(derivations) derivations; compose prints \(brute.guesses)")
        // Twelve pages, one sweep: not twelve times the figure.
        #expect(Double(derivations) < 2 * brute.guesses)
        // compose's words for the group, with the same figure.
        var sweeps = SharedSweeps()
        for number in 1...12 {
            var set = PageSealer.SetDraft(
                locks: [.sealedLocation(laid.grid)],
                hidden: SearchArea(center: laid.pages[number - 1].point, radius: 30))
            set.gridSalt = laid.salt
            set.cost = Self.cheap
            sweeps.add([set], page: number, version: 3)
        }
        let lines = sweeps.sentences(kept: { _ in false })
        #expect(lines.count == 1)
        #expect(
            lines.first?.contains(
                "these 12 pages share one search: whoever sweeps the area opens all 12 for the price of one, about \(BruteForce.time(brute.coreHours)) for the group"
            ) == true,
            "\(lines)")
    }

    @Test func theLatticeSweepWithEveryPINOpensPlacesSealedWithDifferentPINs() throws {
        let area = SearchArea(center: Coordinate(latitude: -33.8568, longitude: 151.2153), radius: 500)
        let laid = try Self.lay(2, radius: 30, in: area, pins: ["3", "8"], version: 3)
        let brute = BruteForce(grid: laid.grid, pinDigits: 1, cost: Self.cheap)
        #expect(brute.pins == 10)
        let (derivations, opened) = Self.sweep(laid, radius: 30, pinDigits: 1)
        #expect(opened.count >= 1)
        let ratio = Double(derivations) / brute.guesses
        #expect(
            (1 / 1.5...1.5).contains(ratio),
            "the sweep took \(derivations) derivations; compose prints \(brute.guesses)")
    }

    /// Formats 4 and 5: a place with a PIN lies on cells half (a third) as wide and holds the keys of a 3 × 3 (4 × 4)
    /// block, so the lattice that meets every block is the cells with both indices divisible by 3 (4): one in nine of
    /// four times as many cells (one in 16 of nine times as many). The sweep of that lattice opens the places for the
    /// figure compose prints; format 3's lattice (both indices even) opens them too, at block²/4 the derivations.
    @Test(arguments: [(version: 4, block: 3), (version: 5, block: 4)])
    func theLatticeOfAPlaceWithAPINIsOneCellInBlockSquaredOfAFinerGrid(format: (version: Int, block: Int)) throws {
        let area = SearchArea(center: Coordinate(latitude: 47.3712, longitude: 8.5423), radius: 400)
        let block = CellGrid.keyBlock(version: format.version, withPIN: true)
        #expect(
            block == format.block && CellGrid.keyBlock(version: 3, withPIN: true) == 2
                && CellGrid.keyBlock(version: format.version, withPIN: false) == 2)
        let laid = try Self.lay(8, radius: 30, in: area, pins: ["4", "7"], block: block, version: format.version)
        let coarse = CellGrid.width(over: area, radius: 30)
        let finer = Double(block - 1)
        #expect(
            laid.grid.width <= coarse / finer + 0.1 && laid.grid.width > coarse / finer - 0.6,
            "\(laid.grid.width) vs \(coarse)")
        for page in laid.pages {
            guard case let .cells(_, _, wrapped)? = page.sealed.slots[.a] else {
                Issue.record("no cells slot")
                return
            }
            #expect(wrapped.count == block * block)
        }
        let brute = BruteForce(grid: laid.grid, pinDigits: 1, cost: Self.cheap, version: format.version)
        #expect(brute.searched == (brute.cells / Double(block * block)).rounded(.up))
        let (derivations, opened) = Self.sweep(laid, radius: 30, pinDigits: 1, block: block)
        // Most places have a full block; the rest still meet the lattice most of the time.
        #expect(opened.count >= 6, "the lattice opened \(opened.count) of 8")
        let ratio = Double(derivations) / brute.guesses
        #expect(
            (1 / 1.5...1.5).contains(ratio),
            "the sweep took \(derivations) derivations; compose prints \(brute.guesses)")
        // Format 3's lattice on this grid: a quarter of the cells, so no cheaper.
        let (evenDerivations, evenOpened) = Self.sweep(laid, radius: 30, pinDigits: 1, block: 2)
        #expect(evenOpened.isSuperset(of: opened))
        #expect(Double(evenDerivations) > 1.8 * Double(derivations), "\(evenDerivations) against \(derivations)")
        // compose's sentence names the lattice it prices.
        #expect(
            brute.sentence.contains("with both indices divisible by \(block), one in \(block * block) of its"),
            "\(brute.sentence)")
    }

    /// A place sealed with a PIN in format 5 is keyed at its own default (two lanes of 6 passes over 512 MiB) on the
    /// lattice of one cell in 16, and compose prices it so; SealedPageTests composes such a file at a cheaper level,
    /// which spares the suite up to 16 runs of 4 core-seconds.
    @Test func composePricesAPlaceWithAPINAtItsOwnCostOnTheFinerLattice() {
        let area = SearchArea(center: Coordinate(latitude: 38.712, longitude: -9.134), radius: 1000)
        let place = Coordinate(latitude: 38.7139, longitude: -9.1334)
        let (grid, _) = SealGrids().grid(
            for: place, radius: 30, declared: area, block: CellGrid.keyBlock(version: 5, withPIN: true))
        let set = PageSealer.SetDraft(
            locks: [.sealedLocation(grid), .sealedPIN], hidden: SearchArea(center: place, radius: 30), pin: "4821")
        #expect(set.secretKind == .placeAndPIN)
        #expect(set.effectiveCost == SealCost(passes: 6, memory: 512 << 20, lanes: 2))
        // One key for each cell the place's disk touches: the cells are a third of its span wide, so 3 or 4 a side
        // as the grid's random offset falls; never more than the block.
        let keys = set.derivations(version: 5)
        #expect(keys == grid.cells(touching: place, radius: 30).count && (9...16).contains(keys), "\(keys) keys")
        let page = PageSealer.seal(
            text: "t", setA: set, setB: .init(locks: []), id: MessageID(bytes: Sealer.randomBytes(16)),
            page: 1, cost: Self.cheap, version: 5)
        let sentence = Composer.protectionSentence(page, sets: [set, .init(locks: [])])
        #expect(
            sentence
                == "sealed by location and PIN: about 227 core-days by the best attack (the 448 cells of 38.71200,-9.13400/1 km with both indices divisible by 4, one in 16 of its 7,163 × 10,000 PINs at 4.38 s a guess)",
            "\(sentence)")
    }

    @Test func composePricesAFormatTwoPlaceAsRecoverable() {
        let point = Coordinate(latitude: 38.7139, longitude: -9.1334)
        let grid = CellGrid(center: point, radius: 30)
        // The attack that makes it so.
        #expect(DecimalAttack(grid: grid).candidates() == [point])
        let id = MessageID(bytes: Sealer.randomBytes(16))
        let withPIN = PageSealer.SetDraft(
            locks: [.sealedLocation(grid), .sealedPIN], hidden: SearchArea(center: point, radius: 30), pin: "4821")
        let page = PageSealer.seal(
            text: "t", setA: withPIN, setB: .init(locks: []), id: id, page: 1, cost: Self.cheap, version: 2)
        let both = Composer.protectionSentence(page, sets: [withPIN, .init(locks: [])])
        #expect(both.hasPrefix("sealed by PIN only (format 2 gives the place away"), "\(both)")
        let brute = BruteForce(grid: grid, pinDigits: 4, cost: SealCost.Secret.placeAndPIN.cost)
        #expect(brute.recoverable && brute.guesses == 10_000)
        #expect(both.contains("about \(BruteForce.time(brute.coreHours)) to try every PIN"), "\(both)")
        let alone = PageSealer.SetDraft(locks: [.sealedLocation(grid)], hidden: SearchArea(center: point, radius: 30))
        let placeOnly = PageSealer.seal(
            text: "t", setA: alone, setB: .init(locks: []), id: id, page: 1, cost: Self.cheap, version: 2)
        let sentence = Composer.protectionSentence(placeOnly, sets: [alone, .init(locks: [])])
        #expect(
            sentence.contains("the place can be recovered from the file") && !sentence.hasPrefix("guarded only"),
            "\(sentence)")
        #expect(BruteForce(grid: grid, pinDigits: nil, cost: Self.cheap).isOpenToAnyone)
    }

    /// Finding 4 of issue 36: a later place's default area is drawn afresh around it, whatever areas the organiser
    /// drew before, so an earlier area rules nothing out. A place that lies whole inside an earlier area (which the
    /// old rule gave that area) and one that lies outside it get areas drawn alike: uniformly around the place. And
    /// both lie on the first place's grid, so a reader derives a cell's key once for all three.
    @Test func aLaterDefaultAreaIsDrawnAfreshSoEarlierAreasNarrowNothing() throws {
        let grids = SealGrids()
        let first = Coordinate(latitude: 46.9, longitude: 7.4)
        let (firstGrid, firstSalt) = grids.grid(for: first, radius: 30, declared: nil)
        let firstArea = try #require(firstGrid.area)
        let metres = Coordinate.earthRadius * Double.pi / 180
        func offset(_ point: Coordinate, _ area: SearchArea) -> (x: Double, y: Double) {
            (
                (area.longitude - point.longitude) * metres * cos(point.latitude * .pi / 180) / area.radius,
                (area.latitude - point.latitude) * metres / area.radius
            )
        }
        // Inside the first area, 20 km from its centre; outside it, 20 km beyond its rim on the same side.
        let bearing = 0.7
        func along(_ kilometres: Double) -> Coordinate {
            Coordinate(
                latitude: firstArea.latitude + kilometres * 1000 * cos(bearing) / metres,
                longitude: firstArea.longitude + kilometres * 1000 * sin(bearing)
                    / (metres * cos(firstArea.latitude * .pi / 180)))
        }
        let inside = along(20)
        let outside = along(SearchArea.defaultRadius / 1000 + 20)
        #expect(firstArea.contains(inside) && !firstArea.contains(outside))
        for point in [inside, outside] {
            var radial: [Double] = []
            var toward = 0
            var shared = 0
            let trials = 600
            let towardFirst = offset(point, firstArea)
            for _ in 0..<trials {
                let (grid, salt) = grids.grid(for: point, radius: 30, declared: nil)
                let area = try #require(grid.area)
                #expect(area != firstArea && area.center.distance(to: point) + 30 <= area.radius)
                let o = offset(point, area)
                radial.append(o.x * o.x + o.y * o.y)
                // The centre's side: toward the first area's centre or away from it.
                if o.x * towardFirst.x + o.y * towardFirst.y > 0 { toward += 1 }
                if salt == firstSalt {
                    shared += 1
                    // One derivation a cell for every place on the grid: the reader's request does not hold the area.
                    let cell = grid.cell(of: point)
                    #expect(cell == firstGrid.cell(of: point))
                }
            }
            // Uniform in the disk around the place: E[ρ²] = 1/2, and as often toward the earlier area as away from it.
            let mean = radial.reduce(0, +) / Double(trials)
            #expect(abs(mean - 0.5) < 0.05, "mean squared offset \(mean) at \(point)")
            #expect(
                abs(Double(toward) / Double(trials) - 0.5) < 0.08,
                "\(toward) of \(trials) toward the first area at \(point)")
            #expect(shared > trials / 3, "only \(shared) of \(trials) areas shared the first grid")
        }
        // The figure prices each area whole: no share of it is ruled out.
        let (grid, _) = grids.grid(for: inside, radius: 30, declared: nil)
        let brute = BruteForce(grid: grid, pinDigits: nil, cost: Self.cheap)
        let ground = cos(grid.area!.latitude * .pi / 180) / grid.cosReference
        #expect(abs(brute.searched - (grid.area!.area / (grid.width * grid.width * ground) / 4).rounded(.up)) <= 1)
    }

    /// One sweep of a grid's places in several default areas searches their union: compose's group figure.
    @Test func theGroupFigureOfPlacesInSeveralDefaultAreasIsTheSweepOfTheirUnion() {
        let grids = SealGrids()
        var sets: [PageSealer.SetDraft] = []
        for index in 0..<3 {
            let point = Coordinate(latitude: 46.9 + Double(index) * 0.05, longitude: 7.4)
            var (grid, salt) = grids.grid(for: point, radius: 30, declared: nil)
            while salt != sets.first?.gridSalt ?? salt {
                (grid, salt) = grids.grid(for: point, radius: 30, declared: nil)
            }
            var set = PageSealer.SetDraft(locks: [.sealedLocation(grid)], hidden: SearchArea(center: point, radius: 30))
            set.gridSalt = salt
            sets.append(set)
        }
        var sweeps = SharedSweeps()
        for (index, set) in sets.enumerated() { sweeps.add([set], page: index + 1, version: 3) }
        let areas = sets.map { $0.grid!.area! }
        let union = SearchArea.union(areas)
        #expect(union > areas[0].area && union < 3 * areas[0].area)
        // The union counted on the lattice is the sampled one.
        var generator = SeededGenerator(seed: 8)
        var hits = 0
        let box = SearchArea(center: areas[0].center, radius: 3 * SearchArea.defaultRadius)
        for _ in 0..<20_000 {
            let point = SearchArea.random(around: box.center, radius: box.radius, using: &generator).center
            if areas.contains(where: { $0.contains(point) }) { hits += 1 }
        }
        // SearchArea.random draws centres uniformly in the disk: the share that falls in the union, times the disk.
        #expect(
            abs(Double(hits) / 20_000 * box.area / union - 1) < 0.05,
            "sampled \(Double(hits) / 20_000 * box.area), counted \(union)")
        let brute = BruteForce(grid: sets[0].grid!, pinDigits: nil, cost: sets[0].effectiveCost, swept: areas)
        let lines = sweeps.sentences(kept: { _ in false })
        #expect(
            lines.count == 1
                && lines[0].contains(
                    "these 3 pages share one search: whoever sweeps their areas opens all 3 for the price of one, about \(BruteForce.time(brute.coreHours)) for the group"
                ), "\(lines)")
    }
}
