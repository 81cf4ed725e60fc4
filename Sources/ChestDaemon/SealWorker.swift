import ChestCore
import ChestIO
import ChestSeal
import FoundationEssentials

/// chestd's one way to run blocking work off the loop (docs/ARCHITECTURE.md "Threads"): Argon2id, for format 2 and
/// 3 key derivations and format 1 PIN hashes, on one thread of its own, never the loop nor the async pool. The
/// engine keeps the queue of cells and hands over one cell's requests at a time (docs/DESIGN.md "Late keys"), so
/// what waits here is small; PIN tries go ahead of cells, since a person waits. Derived keys are kept
/// (`DerivedKeys`): places laid on one grid share a cell's key, so the sets of one cell cost one Argon2id run.
final class SealWorker: @unchecked Sendable {
    /// What the worker hands back to the loop.
    enum Outcome: Sendable {
        /// With the opened page's proof key (base64) when the key opened it.
        case derived(KeyRequest, KeyResult, proofKey: String?)
        /// The format 1 hashes `pin` matched.
        case pinChecked(MessageID, pin: String, matching: [LockKey])
    }

    private enum Job {
        case derive(KeyRequest)
        case checkPIN(MessageID, pin: String, hashes: [LockKey: String])
    }

    private let condition = Condition()
    private var people: [Job] = []
    private var cells: [KeyRequest] = []
    private var stopped = false
    /// Touched only on the worker's thread.
    private var keys = DerivedKeys()
    private let deliver: @Sendable (Outcome) -> Void
    private var started = false

    /// - Parameter starting: false leaves the thread unstarted until `start`, so a test can queue work first.
    init(starting: Bool = true, deliver: @escaping @Sendable (Outcome) -> Void) {
        self.deliver = deliver
        if starting { start() }
    }

    /// Starts the worker's thread when `init` did not; later calls do nothing. Call it from the owner's thread.
    func start() {
        guard !started else { return }
        started = true
        OSThread.start(name: "chestd-seal") { [unowned self] in self.loop() }
    }

    /// Queues a request: a cell's behind the others, anything else (a PIN, a release, a guard) ahead of cells.
    func submit(_ request: KeyRequest) {
        condition.lock()
        guard request.cell != nil else {
            enqueue(.derive(request))
            return
        }
        cells.append(request)
        condition.signal()
        condition.unlock()
    }

    /// Queues a format 1 PIN check, ahead of cell tries.
    func check(_ id: MessageID, pin: String, hashes: [LockKey: String]) {
        condition.lock()
        enqueue(.checkPIN(id, pin: pin, hashes: hashes))
    }

    /// With the condition locked: queues a person's job and unlocks.
    private func enqueue(_ job: Job) {
        people.append(job)
        condition.signal()
        condition.unlock()
    }

    /// How many requests wait.
    var queued: Int {
        condition.lock()
        defer { condition.unlock() }
        return people.count + cells.count
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func loop() {
        while true {
            condition.lock()
            while people.isEmpty && cells.isEmpty && !stopped { condition.wait() }
            if stopped {
                condition.unlock()
                return
            }
            let job = people.isEmpty ? .derive(cells.removeFirst()) : people.removeFirst()
            var keys = self.keys
            condition.unlock()
            switch job {
            case let .derive(request):
                var pageKey: [UInt8]?
                let result = PageSealer.open(request, keys: &keys, pageKey: &pageKey)
                condition.lock()
                self.keys = keys
                condition.unlock()
                // The proof key is made here, while the page key is known; only it is kept (docs/HUNTS.md "Proof of opening").
                var proofKey: String?
                if case .opened = result, let pageKey {
                    proofKey = Data(ReceiptProof.key(pageKey: pageKey)).base64EncodedString()
                }
                deliver(.derived(request, result, proofKey: proofKey))
            case let .checkPIN(id, pin, hashes):
                deliver(
                    .pinChecked(id, pin: pin, matching: hashes.filter { Sealer.pin(pin, matches: $0.value) }.map(\.key))
                )
            }
        }
    }
}

extension DaemonEvent {
    /// What the seal worker handed back, as the loop hears it.
    init(_ outcome: SealWorker.Outcome) {
        switch outcome {
        case let .derived(request, result, proofKey): self = .keyDerived(request, result, proofKey: proofKey)
        case let .pinChecked(id, pin, matching): self = .pinChecked(id, pin: pin, matching: matching)
        }
    }
}
