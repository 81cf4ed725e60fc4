import ChestCore
import FoundationEssentials
import Glibc

/// `deleted/`: what `chest delete` keeps aside for `chest undelete`, for `DeletedMessage.keptFor`.
extension ChestStore {
    /// Where deleted messages and their state wait for `chest undelete`.
    package var deletedDirectory: String { root + "/deleted" }

    /// Moves a deleted message and its state file aside into `deleted/`, and removes what was deleted there more
    /// than `DeletedMessage.keptFor` ago. A kept file's modification time is when it was deleted.
    package func trash(_ id: MessageID, from chest: ChestKind) throws(SystemCallError) {
        try Directory.create(deletedDirectory)
        let kept = deletedDirectory + "/\(id.rawValue)"
        try AtomicFile.move(messagePath(id, in: chest), to: kept + ".\(MessageFile.fileExtension)")
        if FileManager.default.fileExists(atPath: statePath(id)) {
            try AtomicFile.move(statePath(id), to: kept + ".json")
        }
        // A rename keeps the time the message was stored: without this, one stored over a day ago went at once.
        for path in [kept + ".\(MessageFile.fileExtension)", kept + ".json"] { _ = utimensat(AT_FDCWD, path, nil, 0) }
        let limit = Date().addingTimeInterval(-DeletedMessage.keptFor)
        for name in (try? Directory.names(in: deletedDirectory)) ?? [] {
            let path = deletedDirectory + "/" + name
            if let time = modificationTime(path), time < limit { try? AtomicFile.remove(path) }
        }
    }

    /// The messages `trash` kept in the last `DeletedMessage.keptFor` before `now`, with their state and when
    /// they were deleted, oldest first; what cannot be read is reported and left in place.
    package func loadDeleted(now: Date, _ body: (Message, MessageState, Date, UInt16) -> Void) -> [LoadProblem] {
        var problems: [LoadProblem] = []
        let decoder = ChestJSON.decoder()
        let names = ((try? Directory.names(in: deletedDirectory)) ?? []).filter {
            $0.hasSuffix(".\(MessageFile.fileExtension)")
        }
        let kept = names.compactMap { name -> (path: String, at: Date)? in
            let path = deletedDirectory + "/" + name
            guard let at = modificationTime(path), now.timeIntervalSince(at) <= DeletedMessage.keptFor else {
                return nil
            }
            return (path, at)
        }
        for (path, at) in kept.sorted(by: { $0.at < $1.at }) {
            do {
                let (message, state, filing) = try readStored(path, decoder: decoder) {
                    deletedDirectory + "/\($0.rawValue).json"
                }
                body(message, state ?? MessageState(ingestedAt: at), at, filing)
            } catch {
                problems.append(LoadProblem(path: path, reason: "\(error)"))
            }
        }
        return problems
    }

    /// Brings a message deleted with `trash` back, with its state file.
    package func untrash(_ id: MessageID, to chest: ChestKind) throws(SystemCallError) {
        let kept = deletedDirectory + "/\(id.rawValue)"
        try AtomicFile.move(kept + ".\(MessageFile.fileExtension)", to: messagePath(id, in: chest))
        if FileManager.default.fileExists(atPath: kept + ".json") {
            try AtomicFile.move(kept + ".json", to: statePath(id))
        }
    }
}
