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

    static func main(_ arguments: [String]) {
        if arguments.first == "publish", arguments.count == 3 {
            publish(broker: arguments[1], huntPath: arguments[2])
            return
        }
        measureBoard()
    }

    /// A hunt of `teams` teams and, for each, `receiptsPerTeam` signed receipts in envelopes signed by the team,
    /// in the order a hunt would deliver them: every team's first page, then every team's second, and so on.
    static func make(broker: String) -> (hunt: HuntFile, messages: [(topic: String, payload: Data)]) {
        var template = Array((NSTemporaryDirectory() + "/chest-hunt-bench-XXXXXX").utf8CString)
        let directory = String(cString: mkdtemp(&template))
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var hunt = HuntFile(id: HuntSigner.newHuntID(), name: "Bench hunt", broker: broker,
                            organiser: HuntSigner.newTeamKeys().publicKey)
        hunt.organiserPassword = HuntSigner.newPassword()
        var readers: [Identity] = []
        for index in 0..<teams {
            let keys = HuntSigner.newTeamKeys()
            hunt.teams.append(HuntTeam(name: String(format: "team-%03d", index), password: HuntSigner.newPassword(),
                                       publicKey: keys.publicKey, secretKey: keys.secretKey))
            readers.append(try! Identity.loadOrCreate(at: directory + "/reader\(index).json"))
        }
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var messages: [(topic: String, payload: Data)] = []
        messages.reserveCapacity(teams * receiptsPerTeam)
        for page in 1...receiptsPerTeam {
            for (index, team) in hunt.teams.enumerated() {
                let openedAt = start + Double(page * 60 + index)
                let receipt = ReceiptSigner.sign(Self.receipt(page: page, at: openedAt), with: readers[index])
                // A team's ids also number its statuses and OwnTracks events: every other id is a receipt.
                let id = UInt64(page * 2)
                let envelope = HuntSigner.sign(HuntEnvelope(hunt: hunt.id, sender: team.name, id: id, sent: openedAt,
                                                            receipt: receipt), team: team)!
                messages.append((HuntTopic.receipt(hunt: hunt.id, team: team.name, id: id), envelope.bytes))
            }
        }
        return (hunt, messages)
    }

    /// A receipt as chestd makes one for a location lock on a USB receiver: three confirming fixes, positions
    /// removed (the hunt does not share them).
    static func receipt(page: Int, at openedAt: Date) -> UnlockReceipt {
        let fixes = (0..<3).map { second in
            var fix = UnlockEvidence.ConfirmingFix(Fix(mode: 3, coordinate: Coordinate(latitude: 47.3769, longitude: 8.5417),
                                                       altitudeMSL: 410, eph: 3.2, epv: 5.1, satellitesUsed: 9,
                                                       time: openedAt - Double(2 - second), receivedAt: 0))
            fix.latitude = nil
            fix.longitude = nil
            return fix
        }
        let evidence = UnlockEvidence(locks: [.location], fixes: fixes,
                                      source: FixSource(kind: .usb, path: "/dev/ttyACM0", driver: "u-blox",
                                                        vendorID: "1546", productID: "01a7"),
                                      trust: FixTrust(level: .hardware), gpsTime: openedAt, systemTime: openedAt, clock: "gps")
        return UnlockReceipt(message: MessageID(bytes: Sealer.randomBytes(16)),
                             messageSignature: Data(Sealer.randomBytes(64)).base64EncodedString(), title: "Clue \(page)",
                             page: 1, set: .a, openedAt: openedAt, evidence: evidence, reader: "")
    }
}
