import ChestCore
import ChestIO
import ChestSeal
import Foundation

extension Daemon {
    /// Reads both chests into the engine at start. A stored file that no longer matches its seal (a radius
    /// widened by hand in messages/) is set aside.
    func loadChest() {
        refreshIdentity()
        let (messages, problems) = store.loadAll(ingestedAt: Date())
        for problem in problems { log.warning("cannot read \(problem.path): \(problem.reason); left in place") }
        var stored: [StoredMessage] = []
        var refused: [(path: String, reason: String)] = []
        for (message, state, chest) in messages {
            do {
                try Sealer.verify(message)
            } catch {
                log.warning("\(message.id.short) was changed in the chest after it was sealed; set aside in rejected/")
                refused.append((store.path(of: message.id, in: chest), "\(error) (found in the chest at start)"))
                continue
            }
            var state = state
            state.pin.pending = nil    // an attempt cut short by a crash stays counted as wrong
            stored.append(StoredMessage(message: message, state: state, chest: chest, sentByYou: isOwn(message)))
        }
        feed(.loaded(stored, refused: refused, now()))
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

    /// Takes these inbox names in: staged first, so that a crash leaves them where the next start finds them.
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

    /// Reads and checks staged files and lets the engine decide on them as one batch.
    private func ingestStaged(_ paths: [String]) {
        guard !paths.isEmpty else { return }
        refreshIdentity()
        feed(.arrived(paths.map { path in
            Arrival(source: .staged(path: path), file: baseName(path), content: content(of: store.readCandidate(path)))
        }, now()))
        if paths.count >= 100 { Memory.releaseFreePages() }
    }

    /// `chest import FILE`: the same checks as a file dropped in the inbox; the caller hears the outcome.
    func importFile(_ path: String, for client: ClientID) {
        refreshIdentity()
        let read = store.readCandidate(path)
        let bytes = (try? read.get()) ?? Data()
        feed(.arrived([Arrival(source: .copy(bytes, for: client), file: path, content: content(of: read))], now()))
    }

    /// What a file's bytes hold: a message whose seal verifies, or why not.
    func content(of read: Result<Data, ChestError>) -> Arrival.Content {
        do {
            let message = try MessageFile.decode(try read.get())
            try Sealer.verify(message)
            if let problem = PageSealer.checkGuards(message) { return .refused(problem) }
            return .message(message, sentByYou: isOwn(message))
        } catch {
            return .refused("\(error)")
        }
    }

    /// Carries out a change to the chest on disk; returns why it failed, if it did.
    func carryOut(_ change: ChestChange) -> String? {
        do {
            switch change {
            case let .store(admissions):
                var staged: [(id: MessageID, path: String)] = [], copies: [(message: Message, bytes: Data)] = []
                for admission in admissions {
                    switch admission.source {
                    case let .staged(path): staged.append((admission.stored.id, path))
                    case let .copy(bytes, _): copies.append((admission.stored.message, bytes))
                    }
                }
                do {
                    try store.adopt(staged)
                } catch {
                    log.error("cannot store \(staged.count) message(s): \(error); they stay in \(store.incoming) for the next start")
                    throw error
                }
                try store.add(copies)
            case let .move(id, from, to, _):
                try store.move(id, from: from, to: to)
            case let .remove(id, from, _):
                try store.delete(id, from: from)
            }
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Writes a message's PIN attempts to the ledger; returns why it could not.
    func recordAttempts(_ id: MessageID, _ attempts: PINAttempts) -> String? {
        do {
            try attemptsLedger.record(id, attempts)
            return nil
        } catch {
            log.error("cannot record the PIN attempts of \(id.short): \(error)")
            return "\(error)"
        }
    }

    /// Sets a refused file aside in `rejected/` with its reason.
    func setAside(_ path: String, reason: String) {
        do {
            let name = try store.reject(path, reason: reason)
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
