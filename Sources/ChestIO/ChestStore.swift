import ChestCore
import FoundationEssentials
import Glibc

/// The chest directory on disk (README, "The chest directory"):
///
///     CHEST/*.locked              the inbox: drop message files here
///     CHEST/incoming/             files taken from the inbox, being ingested
///     CHEST/messages/ID.locked    the regular chest
///     CHEST/saved/ID.locked       the saved chest
///     CHEST/state/ID.json         each message's latches, open pages and PIN attempts
///
/// ID is the chest ID (`StoredMessage.id`): the message's own ID, unless another sender's message had it when the
/// message came (docs/SECURITY.md "Round five (issue 61)").
///     CHEST/rejected/NAME         refused files, each with NAME.reason beside it
///
/// Every write is atomic and durable (`AtomicFile`).
package struct ChestStore: Sendable {
    package let root: String

    package var incoming: String { root + "/incoming" }
    package var rejected: String { root + "/rejected" }
    var stateDirectory: String { root + "/state" }

    package init(root: String) {
        self.root = root
    }

    /// Creates the directory and its subdirectories (mode 0700) where missing.
    package func prepare() throws(SystemCallError) {
        for directory in [root, incoming, rejected, stateDirectory, directory(of: .regular), directory(of: .saved)] {
            try Directory.create(directory)
        }
        // A write cut short by a crash leaves its temporary file; the file it was to replace is intact.
        for directory in [stateDirectory, directory(of: .regular), directory(of: .saved), rejected, root] {
            for name in (try? Directory.names(in: directory)) ?? [] where name.hasPrefix(AtomicFile.temporaryPrefix) {
                unlink(directory + "/" + name)
            }
        }
    }

    package func directory(of chest: ChestKind) -> String {
        chest == .regular ? root + "/messages" : root + "/saved"
    }

    /// Where a stored message's file is.
    package func path(of id: MessageID, in chest: ChestKind) -> String { messagePath(id, in: chest) }

    func messagePath(_ id: MessageID, in chest: ChestKind) -> String {
        directory(of: chest) + "/\(id.rawValue).\(MessageFile.fileExtension)"
    }

    func statePath(_ id: MessageID) -> String { stateDirectory + "/\(id.rawValue).json" }

    // MARK: - Loading

    /// A stored message that could not be read back, with the reason.
    package struct LoadProblem: Sendable {
        package var path: String
        package var reason: String
        /// The file reads as a message but asks more of a reader than chestd gives (`SealBudget`): set aside, as
        /// it would be refused arriving now, rather than left in place like a file that does not read.
        package var isRefused = false
    }

    /// Every message in both chests with its state, without attachments' bytes, as the engine keeps it (not sent
    /// by you: the caller knows its identity). A file that no longer reads is reported, not deleted.
    package func loadAll(ingestedAt now: Date) -> (messages: [StoredMessage], problems: [LoadProblem]) {
        var messages: [StoredMessage] = []
        // Kept without their attachments' bytes: `read --save` reads a file itself.
        let problems = loadEach(ingestedAt: now) {
            messages.append(
                StoredMessage(
                    message: $0.leavingAttachmentsInFile(), state: $1, chest: $2, sentByYou: false, filing: $3))
        }
        return (messages, problems)
    }

    /// Reads the messages of both chests one at a time, handing each with its state, its chest and its filing
    /// number (`StoredMessage.filing`, from the file's name) to `body` before the next file is read, so that no
    /// file's bytes or decoding outlive its message; returns the files that no longer read, which are reported, not
    /// deleted.
    package func loadEach(ingestedAt now: Date, _ body: (Message, MessageState, ChestKind, UInt16) -> Void)
        -> [LoadProblem]
    {
        var problems: [LoadProblem] = []
        let decoder = ChestJSON.decoder()
        for chest in [ChestKind.regular, .saved] {
            let directory = directory(of: chest)
            for name in (try? Directory.names(in: directory)) ?? []
            where name.hasSuffix(".\(MessageFile.fileExtension)") {
                let path = directory + "/" + name
                do {
                    let (message, state, filing) = try readStored(path, decoder: decoder) { statePath($0) }
                    body(message, state ?? MessageState(ingestedAt: modificationTime(path) ?? now), chest, filing)
                } catch let error as MessageFormatError {
                    let refused = if case .overSealBudget = error { true } else { false }
                    problems.append(LoadProblem(path: path, reason: "\(error)", isRefused: refused))
                } catch {
                    problems.append(LoadProblem(path: path, reason: "\(error)"))
                }
            }
        }
        return problems
    }

    // MARK: - Ingesting

    /// The inbox's candidate names: `*.locked`, not hidden (editors' and sync tools' temporary files are).
    /// A name that is not UTF-8 (a Latin-1 "café.locked") is first renamed to one that is, its stray bytes written
    /// as %XX, so that it is ingested or refused like any other.
    /// Throws when the directory cannot be listed now (out of descriptors): the caller looks again later, rather
    /// than take "nothing there" for an answer.
    package func inboxNames() throws(SystemCallError) -> [String] {
        var names: [String] = []
        for raw in try Directory.rawNames(in: root) {
            if let name = String(validating: raw, as: UTF8.self) {
                if Self.isCandidate(name) { names.append(name) }
            } else if let name = Self.isCandidate(Self.escaped(raw)) ? try? claim(raw, as: Self.escaped(raw)) : nil {
                names.append(name)
            }
        }
        return names.sorted()
    }

    /// A name's bytes with every byte outside ASCII written as %XX.
    static func escaped(_ raw: [UInt8]) -> String {
        raw.map { $0 < 0x80 ? String(UnicodeScalar($0)) : "%" + String($0, radix: 16, uppercase: true) }.joined()
    }

    /// Renames the inbox entry `raw` to `name`, or to `name.2`, `name.3`… when that is taken; returns the new name.
    private func claim(_ raw: [UInt8], as name: String) throws(SystemCallError) -> String? {
        let source = Array((root + "/").utf8CString.dropLast()) + raw.map { CChar(bitPattern: $0) } + [0]
        for attempt in 1...1000 {
            let candidate = attempt == 1 ? name : String(name.dropLast(7)) + "-\(attempt).locked"
            if try AtomicFile.moveWithoutReplacing(source, to: root + "/" + candidate) { return candidate }
        }
        return nil
    }

    /// Whether a name in the inbox is a message file to ingest, rather than a temporary file of an editor or a
    /// sync tool (".#x", ".x.swp", ".syncthing.x.tmp", "x.locked~", "x.locked.part" are all ignored).
    package static func isCandidate(_ name: String) -> Bool {
        !name.hasPrefix(".") && name.hasSuffix(".\(MessageFile.fileExtension)") && name.count > 7
    }

    /// Whether an inbox name is anything but a regular file (a symlink, FIFO, socket, device or directory).
    package func isSpecialFile(_ name: String) -> Bool {
        var info = stat()
        return lstat(root + "/" + name, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG
    }

    /// Takes a file out of the inbox into `incoming/`, so that a crash mid-ingest leaves it where a restart
    /// finds it. Returns nil when the file is gone already.
    /// Never replaces a staged file: a second file of the same name, while the first is still staged (it could not
    /// be read or set aside yet), is staged as `NAME.2`.
    package func stage(_ name: String) throws(SystemCallError) -> String? {
        try moveAside(root + "/" + name, into: incoming, as: name)
    }

    /// Moves `path` into `directory` under `name`, or `name.2`, `name.3`… when taken, never replacing a file.
    /// Returns the new path, or nil when `path` is gone.
    private func moveAside(_ path: String, into directory: String, as name: String) throws(SystemCallError) -> String? {
        for attempt in 1...10_000 {
            let destination = directory + "/" + (attempt == 1 ? name : fitting(name, suffix: ".\(attempt)"))
            do throws(SystemCallError) {
                if try AtomicFile.moveWithoutReplacing(path, to: destination) { return destination }
            } catch  where error.errno == .noSuchFile && error.call == "rename" {
                return nil
            }
        }
        throw SystemCallError("rename", path: path, errno: Errno(EEXIST))
    }

    /// Reads a staged file; nil when the failure will pass (out of descriptors or memory) and the file should stay
    /// staged for a later try rather than be refused.
    package func readStaged(_ path: String) -> Result<Data, ChestError>? {
        do {
            return .success(try MessageFileReader.read(path: path))
        } catch {
            return error.isTransient ? nil : .failure(ChestError(error.description))
        }
    }

    /// The staged files left by an earlier run.
    /// Throws when `incoming/` cannot be listed now (out of descriptors).
    package func stagedNames() throws(SystemCallError) -> [String] { try Directory.names(in: incoming).sorted() }

    /// Reads a candidate with `MessageFileReader`, its refusal as a `ChestError` for the daemon's ingest path.
    package func readCandidate(_ path: String) -> Result<Data, ChestError> {
        Result { () throws(MessageFileReader.ReadError) in try MessageFileReader.read(path: path) }
            .mapError { ChestError($0.description) }
    }

    /// Writes newly accepted messages durably under their chest IDs, as the sealed bytes they arrived in. A message
    /// has no state file until something happens to it; its arrival time is then the file's modification time.
    package func add(_ messages: [(id: MessageID, bytes: Data)]) throws(SystemCallError) {
        try AtomicFile.write(batch: messages.map { (messagePath($0.id, in: .regular), $0.bytes) })
    }

    /// Moves staged files whose messages were accepted into the regular chest, as they are: no copy is written.
    package func adopt(_ staged: [(id: MessageID, path: String)]) throws(SystemCallError) {
        try AtomicFile.adopt(staged.map { ($0.path, messagePath($0.id, in: .regular)) })
    }

    /// Sets a refused file aside in `rejected/` (whatever it is: file, symlink, FIFO) with its reason beside it.
    /// Returns the name it got there.
    /// Never replaces an earlier refused file or reason; a name too long to take `.reason` is shortened.
    @discardableResult
    package func reject(_ path: String, reason: String) throws(SystemCallError) -> String {
        let original = baseName(path)
        for attempt in 1...10_000 {
            let name = fitting(original, suffix: attempt == 1 ? "" : ".\(attempt)")
            let reasonPath = rejected + "/" + fitting(name, suffix: Self.reasonSuffix)
            if exists(rejected + "/" + name) || exists(reasonPath) { continue }
            // The reason first: a crash before the file follows leaves a stray reason and the file staged for retry.
            guard try AtomicFile.write(Data((reason + "\n").utf8), toNew: reasonPath) else { continue }
            if try AtomicFile.moveWithoutReplacing(path, to: rejected + "/" + name) { return name }
            unlink(reasonPath)
        }
        throw SystemCallError("rename", path: path, errno: Errno(EEXIST))
    }

    static let reasonSuffix = ".reason"

    /// Whether anything (a dangling symlink too) has this path.
    private func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Takes a refused file out of `rejected/` into `incoming/` again, without its reason, because it changed after
    /// it was refused (it was still being written). Returns its staged path; nil for a reason file or a name gone.
    package func unreject(_ name: String) throws(SystemCallError) -> String? {
        guard !name.hasSuffix(Self.reasonSuffix), !name.hasPrefix(AtomicFile.temporaryPrefix) else { return nil }
        let path = rejected + "/" + name
        guard !isSpecial(path), let staged = try moveAside(path, into: incoming, as: name) else { return nil }
        try AtomicFile.remove(rejected + "/" + fitting(name, suffix: Self.reasonSuffix))
        return staged
    }

    private func isSpecial(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) != 0 || (info.st_mode & S_IFMT) != S_IFREG
    }

}
