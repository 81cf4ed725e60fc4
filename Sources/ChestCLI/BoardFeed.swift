import ChestCore
import ChestIO
import ChestSeal
import Foundation

/// What `chest board` makes of the broker's messages (docs/HUNTS.md "The board"): each is checked (hunt, key,
/// topic, signature, replay), believed ones update the board, and every message is kept in a journal beside the
/// hunt file, so the board survives its own restarts and a replay after one is still recognised.
struct BoardFeed {
    private(set) var board: HuntBoard
    private(set) var gate: HuntGate
    /// The organiser's hunt file: its page keys check the proofs in receipts. Read again when it changed, since the
    /// organiser may compose more messages for the hunt while the board runs.
    private var hunt: HuntFile
    private let huntPath: String
    private var huntModified: Date?
    private let journalPath: String
    private var journal: FileHandle?
    /// The latest lines worth showing, newest last.
    private(set) var latest: [(at: Date, text: String)] = []
    /// The signatures of the messages believed: an exact copy of one is a redelivery (QoS 1, a retained message
    /// sent again, a team's outbox after a crash), or a replay that tells nothing new; ignored and counted.
    private var believed: Set<String> = []
    private(set) var copies = 0

    /// The journal of the board of the hunt file at `huntPath`.
    static func journalPath(huntPath: String) -> String { huntPath + ".board" }

    init(hunt: HuntFile, huntPath: String) {
        board = HuntBoard(hunt: hunt)
        self.hunt = hunt
        self.huntPath = huntPath
        huntModified = Self.modified(huntPath)
        gate = HuntGate(hunt: hunt)
        journalPath = Self.journalPath(huntPath: huntPath)
    }

    /// Replays the journal (events of the past, in order) and opens it for appending.
    mutating func restore() throws -> [BoardEvent] {
        var events: [BoardEvent] = []
        if let data = FileManager.default.contents(atPath: journalPath) {
            for line in data.split(separator: 0x0a) {
                guard let entry = try? JSONDecoder().decode(JournalEntry.self, from: Data(line)),
                      let payload = Data(base64Encoded: entry.payload) else { continue }
                events += take(topic: entry.topic, payload: payload, retained: false, at: entry.at)
            }
        } else if !FileManager.default.createFile(atPath: journalPath, contents: nil, attributes: [.posixPermissions: 0o600]) {
            throw ChestError("cannot create the board's journal \(journalPath)")
        }
        guard let handle = FileHandle(forWritingAtPath: journalPath) else {
            throw ChestError("cannot open the board's journal \(journalPath)")
        }
        handle.seekToEndOfFile()
        journal = handle
        return events
    }

    /// One message from the broker; kept in the journal unless it is a retained copy already believed.
    mutating func receive(topic: String, payload: Data, retained: Bool, at now: Date) -> [BoardEvent] {
        let events = take(topic: topic, payload: payload, retained: retained, at: now)
        if !events.isEmpty, let journal {
            let entry = JournalEntry(at: now, topic: topic, payload: payload.base64EncodedString())
            if var line = try? JSONEncoder().encode(entry) {
                line.append(0x0a)
                journal.write(line)
            }
        }
        return events
    }

    private mutating func take(topic: String, payload: Data, retained: Bool, at now: Date) -> [BoardEvent] {
        let envelope: HuntEnvelope
        do {
            envelope = try HuntEnvelope.decode(payload)
        } catch {
            gate.countMalformed()
            return note(board.recordRefusal(.malformed, topic: topic, at: now), at: now)
        }
        if let signature = envelope.signature, believed.contains(signature) {
            copies += 1
            return []
        }
        switch gate.admit(envelope, topic: topic, signatureValid: HuntSigner.isValid(envelope)) {
        case .accepted:
            if let signature = envelope.signature { believed.insert(signature) }
            var problem: String?
            var proof = HuntBoard.ProofCheck.missing
            if let receipt = envelope.receipt {
                do {
                    try ReceiptSigner.verify(receipt)
                } catch {
                    problem = error.description
                }
                if hunt.messages?[receipt.message.rawValue] == nil { reloadHunt() }
                proof = ReceiptProof.check(receipt, hunt: hunt)
            }
            return note(board.record(envelope, receiptProblem: problem, proof: proof,
                                     claimedReader: ReaderClaim.claimedReader(envelope), receivedAt: now), at: now)
        case let .refused(refusal):
            return note(board.recordRefusal(refusal, topic: topic, at: now), at: now)
        }
    }

    /// Reads the hunt file again when it changed since it was last read (a message composed with `--hunt` since).
    private mutating func reloadHunt() {
        let modified = Self.modified(huntPath)
        guard modified != huntModified, let file = try? HuntFile.read(path: huntPath), file.id == hunt.id else { return }
        huntModified = modified
        hunt.messages = file.messages
    }

    private static func modified(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }

    private mutating func note(_ events: [BoardEvent], at now: Date) -> [BoardEvent] {
        for event in events { if let text = event.text { latest.append((now, text)) } }
        if latest.count > 50 { latest.removeFirst(latest.count - 50) }
        return events
    }

    private struct JournalEntry: Codable {
        var at: Date
        var topic: String
        var payload: String
    }
}
