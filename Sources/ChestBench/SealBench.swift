import ChestCore
import ChestSeal
import Foundation

/// `chest-bench seal`: the sealed-page numbers of docs/BENCHMARKS.md and docs/SECURITY.md — seconds per guess at each
/// cost, the brute-force table of the targets, a fix against 10,000 sealed locks, a walk's sealing work, and the time
/// from the third confirming fix to the open page.
enum SealBench {
    /// `figuresOnly` (`chest-bench seal figures`): the brute-force table and the walk at the recorded seconds per guess,
    /// without timing anything, for a machine too loaded to time.
    static func main(figuresOnly: Bool = false) {
        guard !figuresOnly else {
            bruteForceTable([:])
            walkBudget(SealCost.Secret.place.cost.secondsPerGuess)
            return
        }
        let perGuess = measureGuesses()
        bruteForceTable(perGuess)
        cellMapping(locks: 10_000)
        walkBudget(
            perGuess[SealCost.Secret.place.cost] ?? SealCost.Secret.place.cost.secondsPerGuess,
            withPINs: perGuess[SealCost.Secret.placeAndPIN.cost] ?? SealCost.Secret.placeAndPIN.cost.secondsPerGuess)
        timeToOpen()
        keptFixes()
    }

    /// What the fixes kept for late keys cost (docs/DESIGN.md "Late keys"): the window every chest keeps, and the most
    /// a full queue of cells can hold on to beyond it.
    static func keptFixes() {
        let memory = Engine.keptFixesMemory
        print(
            String(
                format:
                    "  kept fixes: %d bytes a fix; the %d-epoch window %.1f KiB; a full queue's pins at most %.2f MiB more",
                memory.bytesPerFix, memory.window, Double(memory.bytesPerFix * memory.window) / 1024,
                Double(memory.bytesPerFix * memory.mostPinned) / 1_048_576))
    }

    static let zurich = Coordinate(latitude: 47.37, longitude: 8.54)

    /// Answers every key the engine asks for as wrong, at once, and the keys it asks for next as each answer frees the
    /// seal worker (`CellQueue` hands out one cell at a time).
    static func answerWrong(_ effects: [Engine.Effect], engine: inout Engine, now: Now, each: (KeyRequest) -> Void) {
        var waiting = effects.flattened.compactMap { if case let .deriveKey(request) = $0 { request } else { nil } }
        while !waiting.isEmpty {
            let request = waiting.removeFirst()
            each(request)
            waiting += engine.handle(.keyDerived(request, .wrong, now)).flattened
                .compactMap { if case let .deriveKey(request) = $0 { request } else { nil } }
        }
    }

    /// A format 3 place of `radius` at `point` on a grid over `area`, sealed at `cost`.
    static func sealedPage(
        at point: Coordinate = zurich, radius: Double = 30, area: SearchArea? = nil, cost: SealCost,
        pin: String? = nil, id: MessageID, salt: [UInt8]? = nil, grid: CellGrid? = nil
    ) -> Page {
        var generator = SystemRandomNumberGenerator()
        let grid =
            grid ?? CellGrid(area: area ?? SearchArea(center: point, radius: 2000), radius: radius, using: &generator)
        var set = PageSealer.SetDraft(
            locks: [.sealedLocation(grid)] + (pin == nil ? [] : [.sealedPIN]),
            hidden: SearchArea(center: point, radius: radius), pin: pin)
        set.gridSalt = salt
        return PageSealer.seal(text: "bench", setA: set, setB: .init(locks: []), id: id, page: 1, cost: cost)
    }

    /// Core-seconds per wrong guess, every lane's (derive and the failed unwraps), the median of a few; and the
    /// seconds a reader waits for the key, its lanes side by side.
    static func measureGuesses() -> [SealCost: Double] {
        var result: [SealCost: Double] = [:]
        print("chest-bench seal: core-seconds per guess and seconds per key (Argon2id through libsodium)")
        let costs: [(String, SealCost)] =
            SealCost.Level.allCases.map { ($0.rawValue, $0.cost) }
            + SealCost.Secret.allCases.filter { $0 != .release }.map { ("\($0.rawValue) (default)", $0.cost) }
        for (name, cost) in costs {
            let id = MessageID(bytes: Sealer.randomBytes(16))
            let page = sealedPage(cost: cost, pin: "4821", id: id)
            guard
                let request = KeyRequest(
                    id: id, page: 1, set: .a, of: page.sealed!, cell: Cell(x: 0, y: 0), pin: "0000")
            else { continue }
            let runs = cost.totalMemory >= 512 << 20 ? 3 : 7
            var times: [(core: Double, wall: Double)] = []
            for _ in 0..<runs {
                let start = DispatchTime.now()
                let cpu = processCPU()
                _ = PageSealer.open(request)
                times.append((processCPU() - cpu, ChestBench.elapsed(since: start)))
            }
            let core = times.map(\.core).sorted()[runs / 2]
            let wall = times.map(\.wall).sorted()[runs / 2]
            result[cost] = core
            print(
                String(
                    format: "  %-24@ %-28@ %.3f core-s per guess, %.3f s per key (median of %d; recorded %.2f)",
                    name as NSString,
                    cost.description as NSString, core, wall, runs, cost.secondsPerGuess))
        }
        return result
    }

    /// CPU seconds of every thread of this process.
    static func processCPU() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The targets of docs/SECURITY.md, worst case on one core, at the measured seconds per guess.
    static func bruteForceTable(_ perGuess: [SealCost: Double]) {
        var generator = SystemRandomNumberGenerator()
        func row(_ what: String, _ brute: BruteForce, cost: SealCost, target: Double) {
            let seconds = brute.guesses * (perGuess[cost] ?? cost.secondsPerGuess)
            print(
                String(
                    format: "    %-58@ %12.0f guesses x %.2f s = %9.1f core-hours (%6.1f core-days) target %@ %@",
                    what as NSString, brute.guesses, perGuess[cost] ?? cost.secondsPerGuess, seconds / 3600,
                    seconds / 86400,
                    (target >= 86400 ? "\(Int(target / 86400)) core-days" : "\(Int(target / 3600)) core-hours")
                        as NSString,
                    (seconds >= target ? "OK" : "MISSED") as NSString))
        }
        print(
            "  brute force by the best attack (the lattice sweep: one cell in four; in 16 for a place with a PIN), core-seconds of every lane, at the default costs:"
        )
        row(
            "4-digit PIN alone", BruteForce(grid: nil, pinDigits: 4, cost: SealCost.Secret.pin.cost),
            cost: SealCost.Secret.pin.cost,
            target: 5 * 3600)
        let square = SearchArea(center: zurich, radius: (1e6 / Double.pi).squareRoot())
        // Format 5: a place with a PIN lies on cells a third as wide, its keys a 4 x 4 block.
        let oneKm = CellGrid(
            area: square, radius: 30, block: CellGrid.keyBlock(version: MessageFile.requestable, withPIN: true),
            using: &generator)
        row(
            "4-digit PIN and a 30 m place over 1 km2 (format \(MessageFile.requestable), w=\(oneKm.width) m)",
            BruteForce(
                grid: oneKm, pinDigits: 4, cost: SealCost.Secret.placeAndPIN.cost, version: MessageFile.requestable),
            cost: SealCost.Secret.placeAndPIN.cost, target: 30 * 86400)
        for latitude in [0.0, 47.37, 60, 70] {
            let area = SearchArea(
                center: Coordinate(latitude: latitude, longitude: 8.54), radius: SearchArea.defaultRadius)
            var grid = CellGrid(defaultArea: area, radius: 30, block: 2, using: &generator)
            row(
                String(format: "30 m place over the default area at %.0f deg (w=%d m)", latitude, Int(grid.width)),
                BruteForce(grid: grid, pinDigits: nil, cost: SealCost.Secret.place.cost),
                cost: SealCost.Secret.place.cost,
                target: 30 * 86400)
            // The worst a shared default grid does: an area as far toward the equator as it still serves, whose cells
            // are wider on the ground.
            let equatorward = SearchArea(
                center: Coordinate(
                    latitude: latitude - CellGrid.sharedLatitude * (latitude > 0 ? 1 : 0),
                    longitude: 8.54), radius: SearchArea.defaultRadius)
            guard latitude > 0, grid.serves(equatorward, radius: 30, block: 2) else { continue }
            grid.area = equatorward
            row(
                String(format: "  the same on a grid shared %.1f deg toward the equator", CellGrid.sharedLatitude),
                BruteForce(grid: grid, pinDigits: nil, cost: SealCost.Secret.place.cost),
                cost: SealCost.Secret.place.cost,
                target: 30 * 86400)
        }
        for radius in [10.0, 100] {
            let area = SearchArea(center: zurich, radius: SearchArea.defaultRadius)
            let grid = CellGrid(defaultArea: area, radius: radius, block: 2, using: &generator)
            row(
                "\(Int(radius)) m place over the default area (w=\(Int(grid.width)) m)",
                BruteForce(grid: grid, pinDigits: nil, cost: SealCost.Secret.place.cost),
                cost: SealCost.Secret.place.cost, target: 30 * 86400)
        }
    }

    /// Sealed location locks spread over 40 km around Zurich; a walk of 10,000 fixes; the engine's time per fix.
    static func cellMapping(locks: Int) {
        var generator = SeededGenerator(seed: 11)
        var engine = Engine(gpsServer: "bench")
        _ = engine.handle(.gpsLink(connected: true, server: "bench", reason: nil))
        let start = Now(wall: Date(timeIntervalSince1970: 1_800_000_000), monotonic: 1000)
        let slot = KeySlot.cells(
            salt: [UInt8](repeating: 1, count: 16), cost: SealCost.Secret.place.cost,
            wrapped: [[UInt8]](repeating: [UInt8](repeating: 2, count: 72), count: SealedPage.cellSlots))
        let messages = (0..<locks).map { index -> StoredMessage in
            let point = Coordinate(
                latitude: 47.3769 + Double.random(in: -0.18...0.18, using: &generator),
                longitude: 8.5417 + Double.random(in: -0.18...0.18, using: &generator))
            var bytes = [UInt8](repeating: 0, count: 16)
            withUnsafeBytes(of: UInt64(index).bigEndian) { bytes.replaceSubrange(8..<16, with: $0) }
            let area = SearchArea.random(around: point, using: &generator)
            let page = Page(
                text: "", setA: [.sealedLocation(CellGrid(area: area, radius: 30, using: &generator))],
                sealed: SealedPage(ciphertext: [UInt8](repeating: 3, count: 296), slots: [.a: slot], version: 3))
            return StoredMessage(
                message: Message(
                    id: MessageID(bytes: bytes), title: "m", from: "b", created: start.wall, pages: [page]),
                state: MessageState(ingestedAt: start.wall), chest: .regular, sentByYou: false)
        }
        _ = engine.handle(.loaded(messages, refused: [], start))
        var asked = 0
        let walk = BenchWalk(
            fixes: 10_000, from: Coordinate(latitude: 47.3769, longitude: 8.5417), at: start,
            using: &generator
        ) { position, now, _, measure in
            var effects: [Engine.Effect] = []
            measure { effects = engine.handle(.fix(BenchWalk.fix(position, now), now)) }
            answerWrong(effects, engine: &engine, now: now) { _ in asked += 1 }
        }
        let mean = walk.mean
        print("  one fix against \(locks) sealed location locks: \(walk.summary(digits: 0)) (\(asked) cells asked for)")
        print(mean < 0.001 ? "  OK: under 1 ms per fix" : "  OVER the 1 ms target")
    }

    /// From the third confirming fix to the unlocked event, with the real derivation done where chestd does it:
    /// asked at the second fix, its answer delivered when it would arrive, between the fixes that follow at 1 Hz.
    static func timeToOpen() {
        let target = zurich
        let cost = SealCost.Secret.place.cost
        let id = MessageID(bytes: Sealer.randomBytes(16))
        let page = sealedPage(at: target, radius: 20, cost: cost, id: id)
        let start = Now(wall: Date(timeIntervalSince1970: 1_800_000_000), monotonic: 1000)
        var engine = Engine(gpsServer: "bench")
        _ = engine.handle(.gpsLink(connected: true, server: "bench", reason: nil))
        _ = engine.handle(
            .loaded(
                [
                    StoredMessage(
                        message: Message(id: id, title: "t", from: "f", created: start.wall, pages: [page]),
                        state: MessageState(ingestedAt: start.wall), chest: .regular, sentByYou: false)
                ],
                refused: [], start))
        func unlocks(_ effects: [Engine.Effect]) -> Bool {
            effects.flattened.contains { if case .emit(.unlocked) = $0 { true } else { false } }
        }
        var derivation = 0.0
        var pending: (request: KeyRequest, result: KeyResult, at: Double)?
        var opened = Double.nan
        for second in 1...10 where opened.isNaN {
            // An answer due before this fix arrives first.
            if let answer = pending, answer.at <= Double(second) {
                pending = nil
                if unlocks(engine.handle(.keyDerived(answer.request, answer.result, start.advanced(by: answer.at)))) {
                    opened = answer.at
                }
            }
            guard opened.isNaN else { break }
            let now = start.advanced(by: Double(second))
            let effects = engine.handle(
                .fix(
                    Fix(
                        mode: 3, coordinate: target, altitudeMSL: 400, eph: 5, epv: 8, satellitesUsed: 9,
                        time: now.wall, receivedAt: now.monotonic), now))
            if unlocks(effects) { opened = Double(second) }
            for case let .deriveKey(request) in effects {
                let before = DispatchTime.now()
                let result = PageSealer.open(request)
                derivation = ChestBench.elapsed(since: before)
                pending = (request, result, Double(second) + derivation)
            }
        }
        if opened.isNaN, let answer = pending,
            unlocks(engine.handle(.keyDerived(answer.request, answer.result, start.advanced(by: answer.at))))
        {
            opened = answer.at
        }
        print(
            String(
                format:
                    "  sealed place at the default cost: derivation %.2f s (asked at the 2nd fix); open %.2f s after the 3rd fix (target under 2 s)",
                derivation, opened - 3))
    }
}
