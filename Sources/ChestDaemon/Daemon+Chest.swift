import ChestCore
import ChestIO
import ChestSeal
import Foundation

extension Daemon {
    /// Reads both chests into the engine at start.
    func loadChest() {
        refreshIdentity()
        let (messages, problems) = store.loadAll(ingestedAt: Date())
        for problem in problems { log.warning("cannot read \(problem.path): \(problem.reason); left in place") }
        var stored: [StoredMessage] = []
        for (message, state, chest) in messages {
            // A stored file edited by hand (a radius widened in messages/) no longer matches its seal.
            do {
                try Sealer.verify(message)
            } catch {
                log.warning("\(message.id.short) was changed in the chest after it was sealed; set aside in rejected/")
                _ = try? store.reject(store.path(of: message.id, in: chest), reason: "\(error) (found in the chest at start)")
                continue
            }
            var state = state
            state.pin.pending = nil    // an attempt cut short by a crash stays counted as wrong
            stored.append(StoredMessage(message: message, state: state, chest: chest, sentByYou: isOwn(message)))
        }
        perform(engine.handle(.added(stored, announce: false, now())))
        Memory.releaseFreePages()
    }

    /// Files a crash left in `incoming/`: ingested now.
    func recoverStaged() {
        let staged = store.stagedNames().map { store.incoming + "/" + $0 }
        guard !staged.isEmpty else { return }
        log.info("resuming the ingest of \(staged.count) file(s) interrupted by a stop")
        ingestStaged(staged)
    }

    func watchChest() {
        let sink = self.sink
        do {
            try store.prepare()
            chestWatcher = try ChestWatcher(directory: store.root) { sink.yield(.chest($0)) }
        } catch {
            log.error("cannot watch \(store.root): \(error); retrying when something asks (SIGHUP)")
        }
        ingest(store.inboxNames())
    }

    func handleChestChange(_ change: ChestWatcher.Event) {
        switch change {
        case let .arrived(names):
            ingest(names.filter(ChestStore.isCandidate))
        case let .created(names):
            ingest(names.filter { ChestStore.isCandidate($0) && store.isSpecialFile($0) })
        case .overflow:
            log.warning("inotify queue overflowed; rescanning the chest")
            ingest(store.inboxNames())
        case .directoryGone:
            chestWatcher?.stop()
            log.warning("the chest directory \(store.root) was removed or moved; recreating it and restoring \(engine.entries.count) messages")
            do {
                try store.prepare()
                for stored in engine.entries.values { try store.restore(stored) }
            } catch {
                log.error("cannot restore the chest: \(error)")
            }
            watchChest()
        }
    }

    /// Takes these inbox names in: stage, validate, store, announce; refused files go to `rejected/`.
    func ingest(_ names: [String]) {
        var staged: [String] = []
        for name in names {
            do {
                if let path = try store.stage(name) { staged.append(path) }
            } catch {
                log.error("cannot take \(name) from the inbox: \(error)")
            }
        }
        ingestStaged(staged)
    }

    /// Staged files are moved into the chest whole (a crash between two moves leaves the rest staged for the
    /// next start), so a staged file is never already stored.
    private func ingestStaged(_ paths: [String]) {
        refreshIdentity()
        var accepted: [(id: MessageID, path: String)] = []
        var stored: [StoredMessage] = []
        var seen: Set<MessageID> = []
        let ingestedAt = Date()
        for path in paths {
            switch validate(store.readCandidate(path)) {
            case let .failure(error):
                reject(path, reason: error.description)
            case let .success((message, _)):
                if let existing = engine.entries[message.id] {
                    reject(path, reason: duplicateReason(existing, of: message))
                } else if !seen.insert(message.id).inserted {
                    reject(path, reason: "the same message (\(message.id.short)) arrived twice at once; kept one")
                } else {
                    accepted.append((message.id, path))
                    stored.append(StoredMessage(message: message, state: MessageState(ingestedAt: ingestedAt),
                                                chest: .regular, sentByYou: isOwn(message)))
                }
            }
        }
        do {
            try store.adopt(accepted)
        } catch {
            log.error("cannot store \(accepted.count) message(s): \(error); they stay in \(store.incoming) for the next start")
            return
        }
        perform(engine.handle(.added(stored, announce: true, now())))
        if paths.count >= 100 { Memory.releaseFreePages() }
    }

    /// Decodes and verifies a file's bytes.
    func validate(_ read: Result<Data, ChestError>) -> Result<(Message, Data), ChestError> {
        read.flatMap { data in
            do {
                let message = try MessageFile.decode(data)
                try Sealer.verify(message)
                return .success((message, data))
            } catch {
                return .failure(ChestError("\(error)"))
            }
        }
    }

    /// Why a message with an ID already in either chest is refused: the same message again, or a different one
    /// claiming its ID.
    func duplicateReason(_ existing: StoredMessage, of message: Message) -> String {
        let chest = existing.chest == .saved ? "saved" : "regular"
        return existing.message == message
            ? "message \(existing.id.short) \"\(existing.message.title)\" is already in the \(chest) chest"
            : "a different message with the ID \(existing.id.short) (\"\(existing.message.title)\") is already in the \(chest) chest"
    }

    private func reject(_ path: String, reason: String) {
        do {
            let name = try store.reject(path, reason: reason)
            emit(.rejected(file: baseName(path), reason: reason))
            log.debug("set aside as \(store.rejected)/\(name)")
        } catch {
            log.error("cannot set \(path) aside: \(error); it stays where it is")
        }
    }

    /// Reads the user's identity if chestd has none yet: the first `compose` may make it while chestd runs.
    /// Called once per batch, not per message.
    func refreshIdentity() {
        if identity == nil { identity = try? Identity.load(at: settings.identityPath) }
    }

    /// Whether this machine's identity sealed the message.
    func isOwn(_ message: Message) -> Bool {
        guard let identity, let seal = message.seal else { return false }
        return seal.isMade(by: identity.publicKey)
    }
}
