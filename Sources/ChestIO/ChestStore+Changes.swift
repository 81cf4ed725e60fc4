import ChestCore
import FoundationEssentials
import Glibc

/// What chestd changes in the chest after a message is in: its state, where it lies, a restore.
extension ChestStore {
    /// The state last written for a message, or nil when it has none on disk (or it cannot be read).
    package func savedState(_ id: MessageID) -> MessageState? {
        FileManager.default.contents(atPath: statePath(id)).flatMap {
            try? ChestJSON.decoder().decode(MessageState.self, from: $0)
        }
    }

    package func saveState(_ id: MessageID, _ state: MessageState) throws(SystemCallError) {
        try AtomicFile.write(Self.encode(state), to: statePath(id))
    }

    /// Moves a message between the regular and the saved chest.
    package func move(_ id: MessageID, from: ChestKind, to: ChestKind) throws(SystemCallError) {
        try AtomicFile.move(messagePath(id, from: from), to: messagePath(id, in: to))
    }

    func messagePath(_ id: MessageID, from chest: ChestKind) -> String { messagePath(id, in: chest) }

    /// Sets a stored message aside in `rejected/` with the reason beside it, as a refused arrival is, and removes
    /// its state: a copy of a hunt's message re-signed by another key (docs/SECURITY.md "Round five (issue 61)").
    package func setAside(_ id: MessageID, from chest: ChestKind, reason: String) throws(SystemCallError) {
        try reject(messagePath(id, in: chest), reason: reason)
        try AtomicFile.remove(statePath(id))
    }

    /// Removes a message and its state for good.
    package func delete(_ id: MessageID, from chest: ChestKind) throws(SystemCallError) {
        try AtomicFile.remove(messagePath(id, in: chest))
        try AtomicFile.remove(statePath(id))
    }

    /// Whether the inbox entry `name` was written or changed in the last `seconds`.
    package func changedRecently(_ name: String, within seconds: Double) -> Bool {
        var info = stat()
        guard lstat(root + "/" + name, &info) == 0 else { return false }
        let changed = Double(info.st_ctim.tv_sec) + Double(info.st_ctim.tv_nsec) / 1e9
        return Date().timeIntervalSince1970 - changed < seconds
    }

    /// A stored message's file, its state file when one reads (`statePath` of its chest ID) and its filing number,
    /// from the file's name: a file named by a chest ID of its message other than its own ID was filed under it.
    func readStored(_ path: String, decoder: JSONDecoder, statePath: (MessageID) -> String) throws -> (
        Message, MessageState?, UInt16
    ) {
        let message = try MessageFile.decode(try MessageFileReader.read(path: path))
        let name = MessageID(String(baseName(path).dropLast(MessageFile.fileExtension.count + 1)))
        let filing = name.map { StoredMessage.filing(of: message, named: $0) } ?? 0
        let state = FileManager.default.contents(atPath: statePath(filing == 0 ? message.id : name ?? message.id))
            .flatMap { try? decoder.decode(MessageState.self, from: $0) }
        return (message, state, filing)
    }

    func modificationTime(_ path: String) -> Date? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }

    /// Writes a message and its state back, as after the chest directory was deleted under the daemon.
    package func restore(_ stored: StoredMessage) throws(SystemCallError) {
        try AtomicFile.write(MessageFile.encode(stored.message), to: messagePath(stored.id, in: stored.chest))
        try saveState(stored.id, stored.state)
    }

    static func encode(_ state: MessageState) -> Data {
        try! ChestJSON.encoder().encode(state)
    }
}
