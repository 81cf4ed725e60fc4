import ChestCore
import Foundation
import Glibc

/// The chest directory on disk (README, "The chest directory"):
///
///     CHEST/*.locked              the inbox: drop message files here
///     CHEST/incoming/             files taken from the inbox, being ingested
///     CHEST/messages/ID.locked    the regular chest
///     CHEST/saved/ID.locked       the saved chest
///     CHEST/state/ID.json         each message's latches, open pages and PIN attempts
///     CHEST/rejected/NAME         refused files, each with NAME.reason beside it
///
/// Every write is atomic and durable (`AtomicFile`).
public struct ChestStore: Sendable {
    public let root: String

    public var incoming: String { root + "/incoming" }
    public var rejected: String { root + "/rejected" }
    var stateDirectory: String { root + "/state" }

    public init(root: String) {
        self.root = root
    }

    /// Creates the directory and its subdirectories (mode 0700) where missing.
    public func prepare() throws(SystemCallError) {
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

    public func directory(of chest: ChestKind) -> String {
        chest == .regular ? root + "/messages" : root + "/saved"
    }

    /// Where a stored message's file is.
    public func path(of id: MessageID, in chest: ChestKind) -> String { messagePath(id, in: chest) }

    func messagePath(_ id: MessageID, in chest: ChestKind) -> String {
        directory(of: chest) + "/\(id.rawValue).\(MessageFile.fileExtension)"
    }

    func statePath(_ id: MessageID) -> String { stateDirectory + "/\(id.rawValue).json" }

    // MARK: - Loading

    /// A stored message that could not be read back, with the reason.
    public struct LoadProblem: Sendable {
        public var path: String
        public var reason: String
    }

    /// Every message in both chests with its state. A file that no longer reads is reported, not deleted.
    public func loadAll(ingestedAt now: Date) -> (messages: [(Message, MessageState, ChestKind)], problems: [LoadProblem]) {
        var messages: [(Message, MessageState, ChestKind)] = []
        var problems: [LoadProblem] = []
        let decoder = ChestJSON.decoder()
        for chest in [ChestKind.regular, .saved] {
            let directory = directory(of: chest)
            for name in (try? Directory.names(in: directory)) ?? [] where name.hasSuffix(".\(MessageFile.fileExtension)") {
                let path = directory + "/" + name
                do {
                    let message = try MessageFile.decode(try MessageFileReader.read(path: path))
                    let state = FileManager.default.contents(atPath: statePath(message.id))
                        .flatMap { try? decoder.decode(MessageState.self, from: $0) }
                        ?? MessageState(ingestedAt: modificationTime(path) ?? now)
                    messages.append((message, state, chest))
                } catch {
                    problems.append(LoadProblem(path: path, reason: "\(error)"))
                }
            }
        }
        return (messages, problems)
    }

    // MARK: - Ingesting

    /// The inbox's candidate names: `*.locked`, not hidden (editors' and sync tools' temporary files are).
    public func inboxNames() -> [String] {
        ((try? Directory.names(in: root)) ?? []).filter(Self.isCandidate).sorted()
    }

    /// Whether a name in the inbox is a message file to ingest, rather than a temporary file of an editor or a
    /// sync tool (".#x", ".x.swp", ".syncthing.x.tmp", "x.locked~", "x.locked.part" are all ignored).
    public static func isCandidate(_ name: String) -> Bool {
        !name.hasPrefix(".") && name.hasSuffix(".\(MessageFile.fileExtension)") && name.count > 7
    }

    /// Whether an inbox name is anything but a regular file (a symlink, FIFO, socket, device or directory).
    public func isSpecialFile(_ name: String) -> Bool {
        var info = stat()
        return lstat(root + "/" + name, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG
    }

    /// Takes a file out of the inbox into `incoming/`, so that a crash mid-ingest leaves it where a restart
    /// finds it. Returns nil when the file is gone already.
    public func stage(_ name: String) throws(SystemCallError) -> String? {
        let destination = incoming + "/" + name
        if rename(root + "/" + name, destination) == -1 {
            if errno == ENOENT { return nil }
            throw SystemCallError("rename", path: root + "/" + name)
        }
        return destination
    }

    /// The staged files left by an earlier run.
    public func stagedNames() -> [String] { ((try? Directory.names(in: incoming)) ?? []).sorted() }

    /// Reads a candidate with `MessageFileReader`, its refusal as a `ChestError` for the daemon's ingest path.
    public func readCandidate(_ path: String) -> Result<Data, ChestError> {
        Result { () throws(MessageFileReader.ReadError) in try MessageFileReader.read(path: path) }
            .mapError { ChestError($0.description) }
    }

    /// Writes newly accepted messages durably, as the sealed bytes they arrived in. A message has no state file
    /// until something happens to it; its arrival time is then the file's modification time.
    public func add(_ messages: [(message: Message, bytes: Data)]) throws(SystemCallError) {
        try AtomicFile.write(batch: messages.map { (messagePath($0.message.id, in: .regular), $0.bytes) })
    }

    /// Moves staged files whose messages were accepted into the regular chest, as they are: no copy is written.
    public func adopt(_ staged: [(id: MessageID, path: String)]) throws(SystemCallError) {
        try AtomicFile.adopt(staged.map { ($0.path, messagePath($0.id, in: .regular)) })
    }

    /// Sets a refused file aside in `rejected/` (whatever it is: file, symlink, FIFO) with its reason beside it.
    /// Returns the name it got there.
    @discardableResult
    public func reject(_ path: String, reason: String) throws(SystemCallError) -> String {
        var name = baseName(path), attempt = 1
        while FileManager.default.fileExists(atPath: rejected + "/" + name)
                || (try? FileManager.default.destinationOfSymbolicLink(atPath: rejected + "/" + name)) != nil {
            attempt += 1
            name = baseName(path) + ".\(attempt)"
        }
        try AtomicFile.write(Data((reason + "\n").utf8), to: rejected + "/" + name + ".reason")
        try AtomicFile.move(path, to: rejected + "/" + name)
        return name
    }

    // MARK: - Changing stored messages

    public func saveState(_ id: MessageID, _ state: MessageState) throws(SystemCallError) {
        try AtomicFile.write(Self.encode(state), to: statePath(id))
    }

    /// Moves a message between the regular and the saved chest.
    public func move(_ id: MessageID, from: ChestKind, to: ChestKind) throws(SystemCallError) {
        try AtomicFile.move(messagePath(id, from: from), to: messagePath(id, in: to))
    }

    private func messagePath(_ id: MessageID, from chest: ChestKind) -> String { messagePath(id, in: chest) }

    /// Removes a message and its state for good.
    public func delete(_ id: MessageID, from chest: ChestKind) throws(SystemCallError) {
        try AtomicFile.remove(messagePath(id, in: chest))
        try AtomicFile.remove(statePath(id))
    }

    /// Where deleted messages and their state wait for `chest undelete`.
    public var deletedDirectory: String { root + "/deleted" }

    /// Moves a deleted message and its state file aside into `deleted/`, and removes what was deleted there more
    /// than `DeletedMessage.keptFor` ago.
    public func trash(_ id: MessageID, from chest: ChestKind) throws(SystemCallError) {
        try Directory.create(deletedDirectory)
        let kept = deletedDirectory + "/\(id.rawValue)"
        try AtomicFile.move(messagePath(id, in: chest), to: kept + ".\(MessageFile.fileExtension)")
        if FileManager.default.fileExists(atPath: statePath(id)) { try AtomicFile.move(statePath(id), to: kept + ".json") }
        let limit = Date().addingTimeInterval(-DeletedMessage.keptFor)
        for name in (try? Directory.names(in: deletedDirectory)) ?? [] {
            let path = deletedDirectory + "/" + name
            if let time = modificationTime(path), time < limit { try? AtomicFile.remove(path) }
        }
    }

    /// Brings a message deleted with `trash` back, with its state file.
    public func untrash(_ id: MessageID, to chest: ChestKind) throws(SystemCallError) {
        let kept = deletedDirectory + "/\(id.rawValue)"
        try AtomicFile.move(kept + ".\(MessageFile.fileExtension)", to: messagePath(id, in: chest))
        if FileManager.default.fileExists(atPath: kept + ".json") { try AtomicFile.move(kept + ".json", to: statePath(id)) }
    }

    private func modificationTime(_ path: String) -> Date? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }

    /// Writes a message and its state back, as after the chest directory was deleted under the daemon.
    public func restore(_ stored: StoredMessage) throws(SystemCallError) {
        try AtomicFile.write(MessageFile.encode(stored.message), to: messagePath(stored.id, in: stored.chest))
        try saveState(stored.id, stored.state)
    }

    static func encode(_ state: MessageState) -> Data {
        try! ChestJSON.encoder().encode(state)
    }
}
