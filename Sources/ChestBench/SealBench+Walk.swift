import ChestCore
import Foundation

/// `chest-bench seal`'s walk: what a reader's chestd pays in Argon2id on a 5 km walk past 20 sealed places.
extension SealBench {
    /// A 5 km walk at 1.4 m/s past 20 sealed 30 m places: how many Argon2id runs the engine's requests cost (requests
    /// that share a grid's cell share one run, as the seal worker keeps derived keys) and what share of one core that
    /// is at the default place cost — for a quest whose places share a declared search area, and for 20 messages
    /// composed one by one, each with its own default area.
    ///
    /// And the same walk past 20 places sealed with one PIN the reader has entered (format 5's finer cells, one
    /// organiser's declared area): what a reader pays for places with PINs while walking in their area.
    static func walkBudget(
        _ secondsPerGuess: Double,
        withPINs secondsPerPINGuess: Double = SealCost.Secret.placeAndPIN.cost.secondsPerGuess
    ) {
        let origin = zurich
        let metresPerDegree = Coordinate.earthRadius * .pi / 180
        // Hidden points 30 m beside the route, every 250 m: the reader passes each without knowing.
        let points = (0..<20).map { index in
            Coordinate(
                latitude: origin.latitude + 30 / metresPerDegree,
                longitude: origin.longitude + Double(index) * 250 / (metresPerDegree * cos(origin.latitude * .pi / 180))
            )
        }
        var generator = SeededGenerator(seed: 5)
        let questArea = SearchArea(
            center: Coordinate(latitude: origin.latitude, longitude: points[10].longitude), radius: 4000)
        let questGrid = CellGrid(area: questArea, radius: 30, using: &generator)
        let questSalt = [UInt8](repeating: 9, count: 16)
        let fineGrid = CellGrid(
            area: questArea, radius: 30, block: CellGrid.keyBlock(version: MessageFile.requestable, withPIN: true),
            using: &generator)
        enum Layout { case declared, organiserDefaults, manyOrganisers, withPINs }
        for (label, layout) in [
            ("one organiser, a declared 4 km search area", Layout.declared),
            ("20 messages of one organiser, each a default area drawn afresh", .organiserDefaults),
            ("20 messages of 20 organisers, each its own default area", .manyOrganisers),
            (
                "sharing one PIN the reader entered (cells a third as wide), one organiser's declared 4 km area",
                .withPINs
            ),
        ] {
            let withPINs = layout == .withPINs
            let cost = withPINs ? SealCost.Secret.placeAndPIN.cost : SealCost.Secret.place.cost
            let version = withPINs ? MessageFile.requestable : 3
            var engine = Engine(gpsServer: "bench")
            _ = engine.handle(.gpsLink(connected: true, server: "bench", reason: nil))
            let start = Now(wall: Date(timeIntervalSince1970: 1_800_000_000), monotonic: 1000)
            var organiser = DefaultGrids()
            var salts: UInt8 = 100
            let messages = points.enumerated().map { index, point -> StoredMessage in
                let (grid, salt): (CellGrid, [UInt8])
                switch layout {
                case .declared: (grid, salt) = (questGrid, questSalt)
                case .withPINs: (grid, salt) = (fineGrid, questSalt)
                case .organiserDefaults:
                    (grid, salt) = organiser.grid(
                        for: point, radius: 30, block: 2,
                        salt: {
                            salts += 1
                            return [UInt8](repeating: salts, count: 16)
                        }, using: &generator)
                case .manyOrganisers:
                    (grid, salt) = (
                        CellGrid(
                            defaultArea: DefaultGrids.area(around: point, radius: 30, using: &generator), radius: 30,
                            block: 2, using: &generator), [UInt8](repeating: UInt8(index), count: 16)
                    )
                }
                let slots = SealedPage.cellSlots(version: version, withPIN: withPINs)
                let slot = KeySlot.cells(
                    salt: salt, cost: cost,
                    wrapped: [[UInt8]](repeating: [UInt8](repeating: 2, count: 72), count: slots))
                let page = Page(
                    text: "", setA: [.sealedLocation(grid)] + (withPINs ? [.sealedPIN] : []),
                    sealed: SealedPage(
                        ciphertext: [UInt8](repeating: 3, count: 296), slots: [.a: slot], version: version))
                return StoredMessage(
                    message: Message(
                        id: MessageID(bytes: [UInt8](repeating: UInt8(index), count: 16)), title: "m",
                        from: "b", created: start.wall, pages: [page]),
                    state: MessageState(ingestedAt: start.wall), chest: .regular, sentByYou: false)
            }
            _ = engine.handle(.loaded(messages, refused: [], start))
            let seconds = Int(5000 / 1.4)
            var asked = 0
            var derivations = Set<KeyRequest.Derivation>()
            for message in messages where withPINs {
                let effects = engine.handle(
                    .request(ClientID(1), .pin(id: message.message.id.description, pin: "4821", page: nil), start))
                answerWrong(effects, engine: &engine, now: start) { request in
                    asked += 1
                    if let derivation = request.derivation { derivations.insert(derivation) }
                }
            }
            var noise = SeededGenerator(seed: 3)
            for second in 0..<seconds {
                let along = Double(second) * 1.4
                let wobble = Double.random(in: -3...3, using: &noise)
                let position = Coordinate(
                    latitude: origin.latitude + wobble / metresPerDegree,
                    longitude: origin.longitude + along / (metresPerDegree * cos(origin.latitude * .pi / 180)))
                let now = start.advanced(by: Double(second))
                let effects = engine.handle(
                    .fix(
                        Fix(
                            mode: 3, coordinate: position, altitudeMSL: 400, eph: 6, epv: 9,
                            satellitesUsed: 8, time: now.wall, receivedAt: now.monotonic), now))
                answerWrong(effects, engine: &engine, now: now) { request in
                    asked += 1
                    if let derivation = request.derivation { derivations.insert(derivation) }
                }
            }
            let perRun = withPINs ? secondsPerPINGuess : secondsPerGuess
            let share = Double(derivations.count) * perRun / Double(seconds)
            let grids = Set(
                messages.compactMap {
                    if case let .cells(salt, _, _)? = $0.message.pages[0].sealed?.slots[.a] { salt } else { nil }
                }
            ).count
            print(
                String(
                    format:
                        "  5 km walk past 20 sealed 30 m places, %@ (%d grids): %d cells asked, %d Argon2id runs in %d s: %.1f%% of one core at %.2f s a run (target under 10%%)",
                    label as NSString, grids, asked, derivations.count, seconds, share * 100, perRun))
        }
    }
}
