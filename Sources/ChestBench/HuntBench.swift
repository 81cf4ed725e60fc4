import ChestCore
import ChestIO
import ChestSeal
import Foundation

/// `chest-bench hunt`: what the organiser's board costs per message at 100 teams and 10,000 receipts
/// (docs/BENCHMARKS.md "Hunts"). `chest-bench hunt publish HOST:PORT FILE` writes the same hunt to FILE and
/// publishes its receipts, retained, to a broker, for `chest board FILE --once` (scripts/bench-hunt.py).
enum HuntBench {
    static let teams = 100
    static let receiptsPerTeam = 100

    /// The hunt's size and whether its receipts carry positions (`chest-bench hunt publish … --teams N --pages N
    /// --share-positions`, for the board in a browser: scripts/bench-board-http.py).
    struct Shape {
        var teams = HuntBench.teams
        var pages = HuntBench.receiptsPerTeam
        var sharePositions = false
        var name = "Bench hunt"
        /// Receipts kept back, published one per line read from standard input.
        var hold = 0
    }

    static func main(_ arguments: [String]) {
        if arguments.first == "publish", arguments.count >= 3 {
            var shape = Shape()
            var options = arguments.dropFirst(3).makeIterator()
            while let option = options.next() {
                switch option {
                case "--teams": shape.teams = options.next().flatMap(Int.init) ?? shape.teams
                case "--pages": shape.pages = options.next().flatMap(Int.init) ?? shape.pages
                case "--hold": shape.hold = options.next().flatMap(Int.init) ?? 0
                case "--share-positions": shape.sharePositions = true
                case "--name": shape.name = options.next() ?? shape.name
                default:
                    fatalError(
                        "chest-bench hunt publish HOST:PORT FILE [--teams N] [--pages N] [--share-positions] [--hold N] [--name NAME]"
                    )
                }
            }
            publish(broker: arguments[1], huntPath: arguments[2], shape: shape)
            return
        }
        measureBoard()
    }

    /// Where team `index` is said to have opened `page`: beside the page's target, on a ring 800 m across.
    static func target(page: Int, of pages: Int) -> Coordinate {
        let angle = Double(page) / Double(pages) * 2 * .pi
        return Coordinate(latitude: 47.3769 + 0.0036 * cos(angle), longitude: 8.5417 + 0.0053 * sin(angle))
    }

    /// A hunt of `teams` teams and `receiptsPerTeam` one-page messages composed for it (their page keys in the hunt
    /// file) and, for each team, a receipt of each message, proven with the page's key, signed by the team's reader,
    /// in an envelope signed by the team with the reader's claim, in the order a hunt would deliver them: every
    /// team's first page, then every team's second, and so on. Every receipt is one the board credits.
    static func make(broker: String, shape: Shape = Shape()) -> (
        hunt: HuntFile, messages: [(topic: String, payload: Data)]
    ) {
        let (teams, receiptsPerTeam) = (shape.teams, shape.pages)
        let colours = ["red", "blue", "green", "orange", "purple", "teal", "gold", "grey"]
        let directory = try! Directory.makeTemporary("chest-hunt-bench")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        guard let url = BrokerURL(broker) else { fatalError("not a broker URL: \(broker)") }
        var hunt = HuntFile(
            id: HuntSigner.newHuntID(), name: shape.name, broker: url,
            organiser: HuntSigner.newTeamKeys().publicKey, sharePositions: shape.sharePositions)
        hunt.organiserPassword = HuntSigner.newPassword()
        var readers: [Identity] = []
        for index in 0..<teams {
            let keys = HuntSigner.newTeamKeys()
            hunt.teams.append(
                HuntTeam(
                    name: TeamName(teams <= colours.count ? colours[index] : String(format: "team-%03d", index))!,
                    password: HuntSigner.newPassword(),
                    publicKey: keys.publicKey, secretKey: keys.secretKey))
            readers.append(try! Identity.loadOrCreate(at: directory + "/reader\(index).json"))
        }
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var clues: [(id: MessageID, signature: String, proofKey: String)] = []
        hunt.messages = [:]
        for page in 1...receiptsPerTeam {
            let id = MessageID(bytes: Sealer.randomBytes(16))
            let pageKey = Sealer.randomBytes(SealedPage.keyBytes)
            hunt.messages?[id] = HuntMessage(
                title: "Clue \(page)",
                pages: [
                    HuntMessage.PageKey(
                        key: Data(pageKey).base64EncodedString(), guarded: false,
                        targets: shape.sharePositions
                            ? [.init(target(page: page, of: receiptsPerTeam), radius: 40)] : nil)
                ])
            clues.append(
                (
                    id, Data(Sealer.randomBytes(64)).base64EncodedString(),
                    Data(ReceiptProof.key(pageKey: pageKey)).base64EncodedString()
                ))
        }
        var messages: [(topic: String, payload: Data)] = []
        messages.reserveCapacity(teams * receiptsPerTeam)
        for page in 1...receiptsPerTeam {
            let clue = clues[page - 1]
            for (index, team) in hunt.teams.enumerated() {
                let openedAt = start + Double(page * 60 + index)
                let spot = target(page: page, of: receiptsPerTeam)
                let position =
                    shape.sharePositions
                    ? Coordinate(
                        latitude: spot.latitude + Double(index % 10 - 5) * 0.0003 + Double(page % 3) * 0.0002,
                        longitude: spot.longitude + Double(index / 10 - 5) * 0.0004 + Double(index % 10) * 0.0001) : nil
                let receipt = ReceiptProof.signed(
                    Self.receipt(
                        clue.id, signature: clue.signature, page: page, at: openedAt,
                        position: position),
                    proofKey: clue.proofKey, identity: readers[index])
                // A team's ids also number its statuses and OwnTracks events: every other id is a receipt.
                let id = UInt64(page * 2)
                let claim = ReaderClaim.claim(hunt: hunt.id, team: team.name.rawValue, identity: readers[index])
                let envelope = HuntSigner.sign(
                    HuntEnvelope(
                        hunt: hunt.id, sender: team.name.rawValue, id: id, sent: openedAt,
                        receipt: receipt, readerClaim: claim), team: team)!
                messages.append((HuntTopic.receipt(hunt: hunt.id, team: team.name.rawValue, id: id), envelope.bytes))
            }
        }
        return (hunt, messages)
    }

    /// A receipt as chestd makes one for a location lock on a USB receiver: three confirming fixes, at `position`
    /// when the hunt shares positions, else with positions removed.
    static func receipt(
        _ message: MessageID, signature: String, page: Int, at openedAt: Date,
        position: Coordinate? = nil
    ) -> UnlockReceipt {
        let fixes = (0..<3).map { second in
            var fix = UnlockEvidence.ConfirmingFix(
                Fix(
                    mode: 3, coordinate: position ?? Coordinate(latitude: 47.3769, longitude: 8.5417),
                    altitudeMSL: 410, eph: 3.2, epv: 5.1, satellitesUsed: 9,
                    time: openedAt - Double(2 - second), receivedAt: 0))
            if position == nil {
                fix.latitude = nil
                fix.longitude = nil
            }
            return fix
        }
        let evidence = UnlockEvidence(
            locks: [.location], fixes: fixes,
            source: FixSource(
                kind: .usb, path: "/dev/ttyACM0", driver: "u-blox",
                vendorID: "1546", productID: "01a7"),
            trust: FixTrust(level: .hardware), gpsTime: openedAt, systemTime: openedAt, clock: "gps")
        return UnlockReceipt(
            message: message, messageSignature: signature, title: "Clue \(page)",
            page: 1, set: .a, openedAt: openedAt, evidence: evidence, reader: "")
    }
}
