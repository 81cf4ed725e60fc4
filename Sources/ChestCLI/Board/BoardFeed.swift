import ChestCore
import ChestIO
import ChestMQTT
import ChestSeal
import FoundationEssentials
import Glibc

/// `chest board`'s thin adapter around `BoardCore` (docs/ARCHITECTURE.md "The board's core"): it checks what
/// ChestSeal must check (signatures, claims, proofs), feeds the core, and carries out its effects: the journal
/// beside the hunt file (`HUNT.board`, docs/HUNTS.md "The board's journal"), the hunt file read again when it
/// changed, and hint answers sealed, signed and queued for the broker, those a team asked for and the delayed ones the
/// core says are due (`tick`).
struct BoardFeed {
    private(set) var core: BoardCore
    let huntPath: String
    private var huntModified: Date?
    private let journalPath: String
    private var journal: FileDescriptor?
    /// The organiser's identity, which signs hint answers; nil when this is not the organiser's machine.
    private let organiser: Identity?
    /// Hint answers not yet handed to the broker, oldest first.
    private(set) var outgoing: [MQTTMessage] = []
    private var lastAnswerID: UInt64 = 0
    /// Whether this run queued the start key (docs/HUNTS.md "The start key"): once a run is enough, it is retained.
    private(set) var startQueued = false

    var board: HuntBoard { core.board }
    var gate: HuntGate { core.gate }
    var hunt: HuntFile { core.hunt }

    /// The journal of the board of the hunt file at `huntPath`.
    static func journalPath(huntPath: String) -> String { huntPath + ".board" }
    /// The folder of the submissions' photos beside the journal (docs/HUNTS.md "Missions").
    static func photosPath(huntPath: String) -> String { journalPath(huntPath: huntPath) + ".photos" }

    init(hunt: HuntFile, huntPath: String, organiser: Identity?) {
        let signs = organiser?.publicKeyBase64 == hunt.organiser
        core = BoardCore(hunt: hunt, answersHints: signs)
        self.organiser = signs ? organiser : nil
        self.huntPath = huntPath
        huntModified = Self.modified(huntPath)
        journalPath = Self.journalPath(huntPath: huntPath)
    }

    /// Replays the journal (events of the past, in order) and opens it for appending. Read a line at a time, so
    /// replay holds the board's state, not the journal.
    mutating func restore() throws -> [BoardEvent] {
        var events: [BoardEvent] = []
        if FileManager.default.fileExists(atPath: journalPath) {
            try Self.forEachLine(of: journalPath) { bytes in
                guard let line = BoardJournal.Line.decode(bytes) else { return }
                if let payload = line.payload.flatMap({ Data(base64Encoded: $0) }) {
                    events += perform(
                        core.handle(.replayed(heard(topic: line.topic, payload: payload, retained: false, at: line.at)))
                    )
                } else {
                    events += perform(core.handle(.replayedLine(line)))
                }
            }
        } else if !FileManager.default.createFile(
            atPath: journalPath, contents: nil, attributes: [.posixPermissions: 0o600])
        {
            throw ChestError("cannot create the board's journal \(journalPath)")
        }
        guard let handle = try? FileDescriptor.open(journalPath, O_WRONLY) else {
            throw ChestError("cannot open the board's journal \(journalPath)")
        }
        lseek(handle.rawValue, 0, SEEK_END)
        journal = handle
        return events
    }

    /// One message from the broker (within its team's rate, `OrganiserLink`); the events it caused.
    mutating func receive(topic: String, payload: Data, retained: Bool, at now: Date) -> [BoardEvent] {
        perform(core.handle(.heard(heard(topic: topic, payload: payload, retained: retained, at: now))))
    }

    /// The messages refused unread since the last call, beyond their team's rate or dropped as the queue was full:
    /// counted, not checked (docs/HUNTS.md "A team that floods"); the events they caused.
    mutating func refuse(_ refused: [TeamRate.Refused]) -> [BoardEvent] {
        refused.flatMap { perform(core.handle(.unread($0.reason, topic: $0.topic, at: $0.at, count: $0.count))) }
    }

    /// Gives the delayed hints that fell due by `now` (docs/HUNTS.md "Hints: the board's side"); the events.
    mutating func tick(at now: Date) -> [BoardEvent] {
        guard let due = core.nextHintDue, due <= now else { return [] }
        return perform(core.handle(.tick(at: now)))
    }

    /// How long the board may wait for the broker at `now`: at most `longest`, and not past the next delayed hint's
    /// due moment, so the loop's wait is the timer that gives it.
    func wait(at now: Date, longest: Double) -> Double {
        guard let due = core.nextHintDue else { return longest }
        return min(longest, max(0, due.timeIntervalSince(now)))
    }

    /// Writes what the journal still owes (refusals kept as counts).
    mutating func stop(at now: Date) {
        _ = perform(core.handle(.stopping(at: now)))
        journal?.close()
        journal = nil
    }

    /// Takes the hint answers to publish; those the broker would not take go back with `requeue`.
    mutating func takeOutgoing() -> [MQTTMessage] {
        defer { outgoing.removeAll() }
        return outgoing
    }

    mutating func requeue(_ messages: [MQTTMessage]) { outgoing.insert(contentsOf: messages, at: 0) }

    /// At the start in force by the board's clock (at once when there is none), queues the hunt's start key, signed
    /// and retained, as `chest hunt start` publishes it (docs/HUNTS.md "The start key"). Only the organiser's board
    /// can sign it; a start key composed after the board started is read from the hunt file then.
    mutating func queueStart(at now: Date) {
        guard !startQueued, let organiser, core.schedule.starts.map({ now >= $0 }) ?? true else { return }
        startQueued = true
        let name = HuntRelease.startName
        guard let key = core.hunt.releases?[.start] ?? (try? HuntFile.read(path: huntPath))?.releases?[.start] else {
            return
        }
        let id = max(UInt64(now.timeIntervalSince1970 * 1000), lastAnswerID + 1)
        lastAnswerID = id
        let envelope = HuntSigner.sign(
            HuntEnvelope.startKey(key, hunt: core.hunt.id, id: id, sent: now), with: organiser)
        outgoing.append(
            MQTTMessage(
                topic: HuntTopic.release(hunt: core.hunt.id, name: name), payload: envelope.bytes, qos: 1, retain: true)
        )
    }

    /// What ChestSeal makes of a payload, for the core.
    private func heard(topic: String, payload: Data, retained: Bool, at: Date) -> BoardCore.Heard {
        guard let envelope = try? HuntEnvelope.decode(payload) else {
            return BoardCore.Heard(
                topic: topic, envelope: nil, retained: retained, at: at, checks: BoardCore.Checks(signatureValid: false)
            )
        }
        return BoardCore.Heard(topic: topic, envelope: envelope, retained: retained, at: at, checks: checks(envelope))
    }

    private func checks(_ envelope: HuntEnvelope) -> BoardCore.Checks {
        var checks = BoardCore.Checks(signatureValid: HuntSigner.isValid(envelope))
        guard checks.signatureValid else { return checks }
        checks.claimedReader = ReaderClaim.claimedReader(envelope)
        if case let .receipt(receipt, _) = envelope.body {
            do {
                try ReceiptSigner.verify(receipt)
            } catch {
                checks.receiptProblem = error.description
            }
            checks.proof = ReceiptProof.check(receipt, hunt: core.hunt)
        }
        if case let .submit(submission) = envelope.body { checks.opened = opened(submission) }
        return checks
    }

    /// A submission's sealed box opened with the organiser's key and checked; nil without the organiser's identity.
    private func opened(_ submission: HuntSubmission) -> BoardCore.OpenedSubmission? {
        guard let organiser, let box = Data(base64Encoded: submission.sealed),
            let content = HintSeal.open(box, with: organiser)
        else { return nil }
        let bytes = [UInt8](content)
        let digest = ContentDigest.hex(bytes)
        switch HuntSubmission.check(opened: bytes, kind: submission.kind) {
        case let .success(text):
            return BoardCore.OpenedSubmission(digest: digest, text: text, photo: text == nil ? bytes : nil)
        case let .failure(error):
            return BoardCore.OpenedSubmission(digest: digest, problem: error.description)
        }
    }

    /// Writes a submission's photo into the folder beside the journal, or removes one replaced.
    private func keepPhoto(_ name: String, _ bytes: [UInt8]?) {
        let folder = Self.photosPath(huntPath: huntPath)
        guard let bytes else {
            unlink(folder + "/" + name)
            return
        }
        do {
            try Directory.create(folder)
            try AtomicFile.write(Data(bytes), to: folder + "/" + name)
        } catch {
            printError("chest board: cannot keep the photo \(name) in \(folder): \(error)")
        }
    }

    /// Carries out the core's effects; returns its events.
    private mutating func perform(_ effects: [BoardCore.Effect]) -> [BoardEvent] {
        var events: [BoardEvent] = []
        for effect in effects {
            switch effect {
            case let .event(event): events.append(event)
            case let .journal(line): try? journal?.writeAll(line.bytes, path: journalPath)
            case let .rereadHunt(heard, replay):
                let modified = Self.modified(huntPath)
                if modified != huntModified, let file = try? HuntFile.read(path: huntPath) {
                    huntModified = modified
                    events += perform(core.handle(.huntRead(file, at: heard.at)))
                }
                var heard = heard
                if let envelope = heard.envelope { heard.checks = checks(envelope) }
                events += perform(core.handle(.rechecked(heard, replay: replay)))
            case let .answerHint(answer):
                if let message = seal(answer) { outgoing.append(message) }
            case let .keepPhoto(name, bytes): keepPhoto(name, bytes)
            case let .dropPhoto(name): keepPhoto(name, nil)
            }
        }
        return events
    }

    /// The answer as the broker carries it: the hint's key sealed to the team's key, so that every device of the team
    /// opens it (docs/HUNTS.md "Several devices in one team"), signed by the organiser,
    /// retained on the hint's own topic (an answer given again replaces it), with an id from the organiser's clock in
    /// milliseconds (as releases), each above the last.
    private mutating func seal(_ answer: BoardCore.HintAnswer) -> MQTTMessage? {
        guard let organiser, let key = Data(base64Encoded: answer.key),
            let sealed = HintSeal.seal(
                key, toReader: core.hunt.teams.first { $0.name.rawValue == answer.team }?.publicKey ?? answer.reader)
        else { return nil }
        let id = max(UInt64(Date().timeIntervalSince1970 * 1000), lastAnswerID + 1)
        lastAnswerID = id
        let hint = HuntHint(
            team: answer.team, message: answer.message.rawValue, page: answer.page, hint: answer.hint,
            cost: answer.cost,
            sealed: sealed.base64EncodedString())
        let envelope = HuntSigner.sign(
            HuntEnvelope(hunt: core.hunt.id, id: id, sent: Date(), hint: hint), with: organiser)
        return MQTTMessage(
            topic: HuntTopic.hint(hunt: core.hunt.id, team: answer.team, hintID: hint.hintID),
            payload: envelope.bytes, qos: 1, retain: true)
    }

    /// Calls `body` with each line of the file, read 64 KiB at a time; a line over `maximumLine` (junk kept by an
    /// older board) is skipped without being held.
    static func forEachLine(of path: String, maximumLine: Int = 1 << 20, _ body: (Data) throws -> Void) throws {
        guard let handle = try? FileDescriptor.open(path, O_RDONLY) else {
            throw ChestError("cannot read the board's journal \(path)")
        }
        defer { handle.close() }
        var line = Data()
        var skipping = false
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while case let count = try handle.read(into: &buffer, path: path), count > 0 {
            let chunk = buffer[..<count]
            var start = chunk.startIndex
            while let newline = chunk[start...].firstIndex(of: 0x0a) {
                if !skipping { line.append(contentsOf: chunk[start..<newline]) }
                if !skipping, !line.isEmpty { try body(line) }
                line.removeAll(keepingCapacity: true)
                skipping = false
                start = chunk.index(after: newline)
            }
            if !skipping { line.append(contentsOf: chunk[start...]) }
            if line.count > maximumLine {
                line.removeAll()
                skipping = true
            }
        }
        if !skipping, !line.isEmpty { try body(line) }
    }

    private static func modified(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }
}
