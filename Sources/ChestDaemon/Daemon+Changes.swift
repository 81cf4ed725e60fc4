import ChestCore
import ChestIO
import FoundationEssentials

/// The engine's changes to the chest on disk, carried out: messages stored, moved, trashed, restored and replaced,
/// PIN attempts recorded, refused files set aside.
extension Daemon {
    /// Carries out a change to the chest on disk; returns whether it did, or why it failed.
    func carryOut(_ change: ChestChange) -> Engine.WriteOutcome {
        do {
            switch change {
            case let .store(admissions):
                var staged: [(id: MessageID, path: String)] = []
                var copies: [(id: MessageID, bytes: Data)] = []
                for admission in admissions {
                    switch admission.source {
                    case let .staged(path): staged.append((admission.stored.id, path))
                    case let .copy(bytes, _): copies.append((admission.stored.id, bytes))
                    }
                }
                CrashPoint.storing.reached()
                do {
                    try store.adopt(staged)
                } catch {
                    log.error(
                        "cannot store \(staged.count) message(s): \(error); they stay in \(store.incoming) and are tried again"
                    )
                    scheduleRescan()
                    throw error
                }
                CrashPoint.stored.reached()
                try store.add(copies)
            case let .move(id, from, to, _):
                try store.move(id, from: from, to: to)
            case let .remove(id, from, _):
                try store.trash(id, from: from)
            case let .restore(stored, _):
                try store.untrash(stored.id, to: stored.chest)
            case let .setAside(id, from, reason):
                do {
                    try store.setAside(id, from: from, reason: reason)
                    log.warning("\(id.short) set aside in rejected/: \(reason)")
                } catch {
                    log.error("cannot set \(id.short) aside: \(error); it stays in the chest")
                    throw error
                }
            case let .replace(admission, _):
                switch admission.source {
                case let .staged(path): try store.replace(admission.stored, staged: path)
                case let .copy(bytes, _): try store.replace(admission.stored, bytes: bytes)
                }
            }
            return .done
        } catch {
            return .failed("\(error)")
        }
    }

    /// Writes a message's PIN attempts to the ledger; returns whether it did, or why it could not.
    func recordAttempts(_ id: MessageID, _ attempts: PINAttempts) -> Engine.WriteOutcome {
        do {
            try attemptsLedger.record(id, attempts)
            return .done
        } catch {
            log.error("cannot record the PIN attempts of \(id.short): \(error)")
            return .failed("\(error)")
        }
    }

    /// Sets a refused file aside in `rejected/` with its reason.
    func setAside(_ path: String, reason: String) {
        do {
            let name = try store.reject(path, reason: reason)
            log.debug("set aside as \(store.rejected)/\(name)")
        } catch {
            log.error("cannot set \(path) aside: \(error); it stays where it is and is tried again")
            scheduleRescan()
        }
    }
}
