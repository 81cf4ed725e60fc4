import ChestCore
import ChestIO
import ChestSeal
import FoundationEssentials

extension Daemon {
    /// Reads both chests into the engine at start. A stored file that no longer matches its seal (a radius
    /// widened by hand in messages/) is set aside.
    ///
    /// Each file is read, decoded and checked before the next, and only the message is kept: the bytes and the
    /// decoder's temporaries of one file are freed before the next file's are made, and so is its copy of the
    /// sender's key and name, shared at once: kept until the engine's table shared them, 10,000 messages' copies
    /// left 1.3 MB of holes between the kept titles and locks (docs/BENCHMARKS.md "Memory").
    func loadChest() {
        parkSealedPages()
        refreshIdentity()
        var stored: [StoredMessage] = []
        var senders = SenderInterning()
        var refused: [(path: String, reason: String)] = []
        let problems = store.loadEach(ingestedAt: now().wall) { message, state, chest, filing in
            let found = kept(message, state, in: chest, filing: filing)
            do {
                try Sealer.verify(message)
            } catch {
                log.warning("\(found.id.short) was changed in the chest after it was sealed; set aside in rejected/")
                refused.append((store.path(of: found.id, in: chest), "\(error) (found in the chest at start)"))
                return
            }
            var shared = found
            senders.share(&shared.message)
            stored.append(shared)
        }
        for problem in problems {
            if problem.isRefused {
                log.warning(
                    "\(baseName(problem.path)) asks more of this reader than it gives; set aside in rejected/: \(problem.reason)"
                )
                refused.append((problem.path, "\(problem.reason) (found in the chest at start)"))
            } else {
                log.warning("cannot read \(problem.path): \(problem.reason); left in place")
            }
        }
        feed(.loaded(stored, refused: refused, now()))
        loadDeleted()
    }

    /// A message found on disk at start, its seal checked, as the engine keeps it: the attachments' bytes stay in
    /// the file until someone reads them.
    private func kept(_ message: Message, _ state: MessageState, in chest: ChestKind, filing: UInt16) -> StoredMessage {
        StoredMessage(
            message: message.leavingAttachmentsInFile(), state: state, chest: chest, sentByYou: isOwn(message),
            filing: filing)
    }

    /// What was deleted before the restart and is still kept: `chest undelete` can bring it back.
    func loadDeleted() {
        var deleted: [DeletedMessage] = []
        let problems = store.loadDeleted(now: now().wall) { message, state, at, filing in
            // A file changed in deleted/ would come back into the chest unchecked: it stays where it is.
            guard (try? Sealer.verify(message)) != nil else {
                log.warning("\(message.id.short) was changed in deleted/ after it was sealed; it cannot be undeleted")
                return
            }
            deleted.append(DeletedMessage(stored: kept(message, state, in: .regular, filing: filing), at: at))
        }
        for problem in problems {
            log.warning("cannot read \(problem.path): \(problem.reason); it cannot be undeleted")
        }
        feed(.deletedRestored(deleted))
    }

    /// Files a crash left in `incoming/`: ingested now.
    func recoverStaged() {
        let staged: [String]
        do {
            staged = try store.stagedNames().map { store.incoming + "/" + $0 }
        } catch {
            log.warning("cannot look in \(store.incoming) now: \(error); trying again shortly")
            scheduleRescan()
            return
        }
        guard !staged.isEmpty else { return }
        log.info("resuming the ingest of \(staged.count) file(s) interrupted by a stop")
        ingestStaged(staged)
    }

    func watchChest() {
        let sink = self.sink
        do {
            try store.prepare()
            chestWatcher?.stop()
            chestWatcher = nil
            chestWatcher = try ChestWatcher(directory: store.root) { sink.yield(.chest($0)) }
            rejectedWatcher?.stop()
            rejectedWatcher = nil
            rejectedWatcher = try ChestWatcher(directory: store.rejected, events: ChestWatcher.writesFinished) {
                sink.yield(.rejectedChanged($0))
            }
        } catch {
            // Out of descriptors or inotify instances for a moment: the rescans that follow, backing off to 30 s,
            // take the inbox in meanwhile and try the watch again.
            log.error("cannot watch \(store.root): \(error); trying again shortly")
            scheduleRescan()
        }
        rescanInbox()
    }

    /// Whether inotify watches the chest and rejected/ (else each rescan tries again).
    var isWatching: Bool { chestWatcher != nil && rejectedWatcher != nil }

    /// Seconds a file found by a rescan must have been left unchanged: one still being written when chestd
    /// starts or rescans is taken once its writer is done, not half-written.
    static let settleTime = 1.0

    /// Takes in the inbox's files that have settled, and looks again later for those that have not.
    func rescanInbox() {
        let names: [String]
        do {
            names = try store.inboxNames()
        } catch {
            log.warning("cannot look in \(store.root) now: \(error); trying again shortly")
            scheduleRescan()
            return
        }
        let (settled, fresh) = names.reduce(into: ([String](), [String]())) { split, name in
            if store.changedRecently(name, within: Self.settleTime) {
                split.1.append(name)
            } else {
                split.0.append(name)
            }
        }
        ingest(settled)
        if !fresh.isEmpty {
            log.debug("\(fresh.count) file(s) still being written; looking again in \(Self.settleTime) s")
            scheduleRescan(after: Self.settleTime)
        }
    }

    /// Plans one `.rescan`: after `delay`, or after a wait that grows to 30 s while files stay stuck. On the system
    /// clock, whatever the loop's: a file settles by the modification times the system clock writes.
    func scheduleRescan(after delay: Double? = nil) {
        guard !rescanPlanned else { return }
        rescanPlanned = true
        if delay == nil { rescanBackoff = min(max(rescanBackoff * 2, 0.5), 30) }
        rescanTimer?.aim(at: Date().timeIntervalSince1970 + (delay ?? rescanBackoff))
    }

    /// Refused files that were written again after they were refused (their writer was not done): tried again.
    func retryRejected(_ names: [String]) {
        var staged: [String] = []
        for name in Set(names) {
            do {
                if let path = try store.unreject(name) { staged.append(path) }
            } catch {
                log.error("cannot take \(name) back from rejected/: \(error)")
            }
        }
        if !staged.isEmpty { log.info("trying again \(staged.count) refused file(s) written since") }
        ingestStaged(staged.sorted())
    }

    func handleChestChange(_ change: ChestWatcher.Event) {
        switch change {
        case let .arrived(names) where names.contains { $0.unicodeScalars.contains("\u{FFFD}") }:
            // A name that is not UTF-8 reads back repaired and names no file: a rescan renames it first.
            ingest(names.filter(ChestStore.isCandidate))
            rescanInbox()
        case let .arrived(names):
            ingest(names.filter(ChestStore.isCandidate))
        case let .created(names):
            ingest(names.filter { ChestStore.isCandidate($0) && store.isSpecialFile($0) })
        case .overflow:
            log.warning("inotify queue overflowed; rescanning the chest")
            rescanInbox()
        case .directoryGone:
            chestWatcher?.stop()
            chestWatcher = nil
            log.warning(
                "the chest directory \(store.root) was removed or moved; recreating it and restoring \(engine.entries.count) messages"
            )
            restoreChest()
        }
    }

    /// Recreates the chest and writes back every message chestd holds. The watch comes first: a removal still
    /// under way (`rm -rf` walking the tree) takes what was restored, and the watch then sees the directory go again
    /// and restores it again; a chest that could not be watched or written back is tried again by the rescans.
    func restoreChest() {
        watchChest()
        chestNeedsRestore = true
        guard isWatching else { return }
        do {
            chestLock?.release()
            chestLock = nil
            chestLock = try ChestLock(root: store.root)
            for stored in engine.entries.values {
                try store.restore(stored)
                if stored.message.pages.contains(where: { $0.attachments != nil }) {
                    log.warning(
                        "\(stored.id.short) carries attachments, which chestd does not hold: its file comes back without them and will be set aside at the next start; import the original file again"
                    )
                }
            }
            chestNeedsRestore = false
        } catch {
            log.error("cannot restore the chest: \(error); trying again shortly")
            scheduleRescan()
        }
    }

    /// Takes these inbox names in: staged first, so that a crash leaves them where the next start finds them.
    func ingest(_ names: [String]) {
        var staged: [String] = []
        for name in names {
            do {
                if let path = try store.stage(name) { staged.append(path) }
            } catch {
                log.error("cannot take \(name) from the inbox: \(error); trying again shortly")
                scheduleRescan()
            }
        }
        CrashPoint.staged.reached()
        ingestStaged(staged)
    }

    /// Reads and checks staged files and lets the engine decide on them as one batch. A file that cannot be read
    /// for want of descriptors or memory stays staged and is tried again later.
    func ingestStaged(_ paths: [String]) {
        guard !paths.isEmpty else { return }
        refreshIdentity()
        var arrivals: [Arrival] = []
        var bytes = 0
        for path in paths {
            guard let read = store.readStaged(path) else { continue }
            bytes += (try? read.get())?.count ?? 0
            arrivals.append(Arrival(source: .staged(path: path), file: baseName(path), content: content(of: read)))
        }
        if arrivals.count < paths.count {
            log.warning(
                "cannot read \(paths.count - arrivals.count) staged file(s) now (out of descriptors or memory); trying again shortly"
            )
            scheduleRescan()
        }
        CrashPoint.read.reached()
        feed(.arrived(arrivals, now()))
        // Every 100 files, or files with attachments, leave free heap pages that the kept messages no longer need:
        // counted over batches, since a slow copy (or a loaded machine) brings a few files a batch (docs/BENCHMARKS.md
        // "Memory"). The data segment goes once the files stop coming: paged out every 100 files, its constants
        // were read back from the disk by the next 100, and 10,000 files took 10.6 s instead of 7.
        ingestedSinceRelease += paths.count
        if ingestedSinceRelease >= 100 || bytes > MessageFile.sizeLimit {
            ingestedSinceRelease = 0
            Memory.releaseFreePages()
            Memory.releaseCodePages()
        }
        releaseCodeSoon(data: true)
    }

    /// `chest import FILE`: the file as an arrival, with the same checks as a file dropped in the inbox; the
    /// client hears the outcome.
    func importArrival(_ path: String, for client: ClientID) -> Engine.Input {
        refreshIdentity()
        let read = store.readCandidate(path)
        let bytes = (try? read.get()) ?? Data()
        return .arrived([Arrival(source: .copy(bytes, for: client), file: path, content: content(of: read))], now())
    }

    /// What a file's bytes hold: a message whose seal verifies, or why not.
    func content(of read: Result<Data, ChestError>) -> Arrival.Content {
        do {
            let message = try MessageFile.decode(try read.get())
            try Sealer.verify(message)
            if let problem = PageSealer.checkGuards(message) { return .refused(problem) }
            // Checked whole, kept without its attachments' bytes: they stay in the file until someone reads them.
            return .message(message.leavingAttachmentsInFile(), sentByYou: isOwn(message))
        } catch {
            return .refused("\(error)")
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
