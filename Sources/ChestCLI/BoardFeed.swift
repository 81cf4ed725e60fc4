import ChestCore
import ChestIO
import ChestSeal
import Foundation

/// What `chest board` makes of the broker's messages (docs/HUNTS.md "The board"): each is checked (hunt, key,
/// topic, signature, replay), believed ones update the board, and every message is kept in a journal beside the
/// hunt file (a refused one as its refusal only), so the board survives its own restarts and a replay after one is
/// still recognised.
struct BoardFeed {
    private(set) var board: HuntBoard
    private(set) var gate: HuntGate
    /// The organiser's hunt file: its page keys check the proofs in receipts. Read again when it changed, since the
    /// organiser may compose more messages for the hunt while the board runs.
    private(set) var hunt: HuntFile
    private let huntPath: String
    private var huntModified: Date?
    private let journalPath: String
    private var journal: FileHandle?
    /// The latest pages credited and the latest refusals, each with when the board heard it, newest last.
    private(set) var unlocks: [(at: Date, event: BoardEvent)] = []
    private(set) var refusals: [(at: Date, event: BoardEvent)] = []
    /// Every event worth a line, for the terminal: both lists, in the order they came.
    var latest: [(at: Date, event: BoardEvent)] {
        (unlocks + refusals).enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
    }
    /// The signatures of the messages believed: an exact copy of one is a redelivery (QoS 1, a retained message
    /// sent again, a team's outbox after a crash), or a replay that tells nothing new; ignored and counted.
    private var believed: Set<String> = []
    private(set) var copies = 0
    /// The hunt's start and end, and the organiser's words to the teams (BoardFeed+Schedule.swift).
    var schedule: HuntSchedule
    var words: [(at: Date, said: HuntWord.Said)] = []

    /// The journal of the board of the hunt file at `huntPath`.
    static func journalPath(huntPath: String) -> String { huntPath + ".board" }

    init(hunt: HuntFile, huntPath: String) {
        board = HuntBoard(hunt: hunt)
        self.hunt = hunt
        self.huntPath = huntPath
        huntModified = Self.modified(huntPath)
        gate = HuntGate(hunt: hunt)
        schedule = hunt.schedule
        journalPath = Self.journalPath(huntPath: huntPath)
    }

    /// Replays the journal (events of the past, in order) and opens it for appending. Read a line at a time, so
    /// replay holds the board's state, not the journal.
    mutating func restore() throws -> [BoardEvent] {
        var events: [BoardEvent] = []
        if FileManager.default.fileExists(atPath: journalPath) {
            try Self.forEachLine(of: journalPath) { line in
                guard let entry = try? JSONDecoder().decode(JournalEntry.self, from: line) else { return }
                if let payload = entry.payload.flatMap({ Data(base64Encoded: $0) }) {
                    events += take(topic: entry.topic, payload: payload, retained: false, at: entry.at).events
                } else if let reason = entry.refused {
                    let refusal = HuntGate.Refusal(rawValue: reason) ?? .malformed
                    gate.count(refusal)
                    events += note(board.recordRefusal(refusal, topic: entry.topic, at: entry.at), at: entry.at)
                }
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

    /// One message from the broker, kept in the journal unless it is a copy already believed: in full when its
    /// envelope passed the gate (then it is at most `HuntEnvelope.sizeLimit`), else only its refusal and topic
    /// (shortened), never a junk payload.
    mutating func receive(topic: String, payload: Data, retained: Bool, at now: Date) -> [BoardEvent] {
        let (events, passed) = take(topic: topic, payload: payload, retained: retained, at: now)
        if !events.isEmpty, let journal {
            let entry = switch passed {
            case nil: JournalEntry(at: now, topic: topic, payload: payload.base64EncodedString())
            case let refusal?: JournalEntry(at: now, topic: Self.shortened(topic), refused: refusal.rawValue)
            }
            if var line = try? JSONEncoder().encode(entry) {
                line.append(0x0a)
                journal.write(line)
            }
        }
        return events
    }

    /// The events, and the gate's refusal when the envelope did not pass it (nil when it did, or was a copy).
    private mutating func take(topic: String, payload: Data, retained: Bool,
                               at now: Date) -> (events: [BoardEvent], refused: HuntGate.Refusal?) {
        let envelope: HuntEnvelope
        do {
            envelope = try HuntEnvelope.decode(payload)
        } catch {
            gate.countMalformed()
            return (note(board.recordRefusal(.malformed, topic: Self.shortened(topic), at: now), at: now), .malformed)
        }
        if let signature = envelope.signature, believed.contains(signature) {
            copies += 1
            return ([], nil)
        }
        switch gate.admit(envelope, topic: topic, signatureValid: HuntSigner.isValid(envelope)) {
        case .accepted:
            if let signature = envelope.signature { believed.insert(signature) }
            // docs/HUNTS.md "The hunt's start and end", "Word to all teams" (BoardFeed+Schedule.swift).
            switch window(envelope, at: now) {
            case .taken: return ([], nil)
            case .afterEnd:
                gate.count(.afterEnd)
                return (note(board.recordRefusal(.afterEnd, topic: Self.shortened(topic), at: now), at: now), nil)
            case .record: break
            }
            var problem: String?
            var proof = HuntBoard.ProofCheck.missing
            var envelope = envelope
            if let receipt = envelope.receipt {
                do {
                    try ReceiptSigner.verify(receipt)
                } catch {
                    problem = error.description
                }
                if hunt.messages?[receipt.message.rawValue] == nil { reloadHunt() }
                proof = ReceiptProof.check(receipt, hunt: hunt)
                // A team signs whatever title it likes; the board shows the one the organiser composed.
                if let title = hunt.messages?[receipt.message.rawValue]?.title { envelope.receipt?.title = title }
            }
            return (note(board.record(envelope, receiptProblem: problem, proof: proof,
                                      claimedReader: ReaderClaim.claimedReader(envelope), receivedAt: now), at: now), nil)
        case let .refused(refusal):
            return (note(board.recordRefusal(refusal, topic: Self.shortened(topic), at: now), at: now), refusal)
        }
    }

    /// A topic as the journal and the refusals show it: at most 256 bytes (a hunt's own topics are far shorter).
    static func shortened(_ topic: String) -> String {
        topic.utf8.count <= 256 ? topic : String(decoding: topic.utf8.prefix(256), as: UTF8.self) + "…"
    }

    /// Calls `body` with each line of the file, read 64 KiB at a time; a line over `maximumLine` (junk kept by an
    /// older board) is skipped without being held.
    static func forEachLine(of path: String, maximumLine: Int = 1 << 20, _ body: (Data) throws -> Void) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ChestError("cannot read the board's journal \(path)") }
        defer { try? handle.close() }
        var line = Data(), skipping = false
        while let chunk = try handle.read(upToCount: 64 << 10), !chunk.isEmpty {
            var start = chunk.startIndex
            while let newline = chunk[start...].firstIndex(of: 0x0a) {
                if !skipping { line.append(chunk[start..<newline]) }
                if !skipping, !line.isEmpty { try body(line) }
                line.removeAll(keepingCapacity: true)
                skipping = false
                start = chunk.index(after: newline)
            }
            if !skipping { line.append(chunk[start...]) }
            if line.count > maximumLine {
                line.removeAll()
                skipping = true
            }
        }
        if !skipping, !line.isEmpty { try body(line) }
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
        for event in events {
            switch event {
            case .team: continue
            case .unlock: Self.keep((now, event), in: &unlocks)
            case .refused: Self.keep((now, event), in: &refusals)
            }
        }
        return events
    }

    private static func keep(_ entry: (at: Date, event: BoardEvent), in list: inout [(at: Date, event: BoardEvent)]) {
        list.append(entry)
        if list.count > 50 { list.removeFirst(list.count - 50) }
    }

    /// A line of the journal: a message that passed the gate, in full (`payload`, base64), or a refusal by the gate
    /// (`refused`, its reason) with the topic it came on.
    private struct JournalEntry: Codable {
        var at: Date
        var topic: String
        var payload: String?
        var refused: String?
    }
}
