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

    /// A hunt of `teams` teams and `receiptsPerTeam` one-page messages composed for it (their page keys in the hunt
    /// file) and, for each team, a receipt of each message, proven with the page's key, signed by the team's reader,
    /// in an envelope signed by the team with the reader's claim, in the order a hunt would deliver them: every
    /// team's first page, then every team's second, and so on. Every receipt is one the board credits.
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
        var clues: [(id: MessageID, signature: String, proofKey: String)] = []
        hunt.messages = [:]
        for page in 1...receiptsPerTeam {
            let id = MessageID(bytes: Sealer.randomBytes(16))
            let pageKey = Sealer.randomBytes(SealedPage.keyBytes)
            hunt.messages?[id.rawValue] = HuntMessage(title: "Clue \(page)", pages: [
                HuntMessage.PageKey(key: Data(pageKey).base64EncodedString(), guarded: false)])
            clues.append((id, Data(Sealer.randomBytes(64)).base64EncodedString(),
                          Data(ReceiptProof.key(pageKey: pageKey)).base64EncodedString()))
        }
        var messages: [(topic: String, payload: Data)] = []
        messages.reserveCapacity(teams * receiptsPerTeam)
        for page in 1...receiptsPerTeam {
            let clue = clues[page - 1]
            for (index, team) in hunt.teams.enumerated() {
                let openedAt = start + Double(page * 60 + index)
                let receipt = ReceiptProof.signed(Self.receipt(clue.id, signature: clue.signature, page: page, at: openedAt),
                                                  proofKey: clue.proofKey, identity: readers[index])
                // A team's ids also number its statuses and OwnTracks events: every other id is a receipt.
                let id = UInt64(page * 2)
                let claim = ReaderClaim.claim(hunt: hunt.id, team: team.name, identity: readers[index])
                let envelope = HuntSigner.sign(HuntEnvelope(hunt: hunt.id, sender: team.name, id: id, sent: openedAt,
                                                            receipt: receipt, readerClaim: claim), team: team)!
                messages.append((HuntTopic.receipt(hunt: hunt.id, team: team.name, id: id), envelope.bytes))
            }
        }
        return (hunt, messages)
    }

    /// A receipt as chestd makes one for a location lock on a USB receiver: three confirming fixes, positions
    /// removed (the hunt does not share them).
    static func receipt(_ message: MessageID, signature: String, page: Int, at openedAt: Date) -> UnlockReceipt {
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
        return UnlockReceipt(message: message, messageSignature: signature, title: "Clue \(page)",
                             page: 1, set: .a, openedAt: openedAt, evidence: evidence, reader: "")
    }
}
