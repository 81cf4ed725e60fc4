import ChestCore
import ChestSeal
import Foundation

/// Argon2id work off the loop (docs/DESIGN.md "Sealed pages"): one thread of its own, never the loop nor the
/// async pool, with a bounded queue. Cell tries beyond the bound are answered `.busy` at once (the engine asks
/// again when the reader settles again); PIN tries are always queued, ahead of cells, since a person waits.
final class SealWorker: @unchecked Sendable {
    /// Cell tries waiting at most: a walk past many sealed locks cannot pile work up.
    static let capacity = 16

    private let condition = NSCondition()
    private var people: [KeyRequest] = []
    private var cells: [KeyRequest] = []
    private var stopped = false
    /// The request, its answer, and the opened page's proof key (base64) when the key opened it.
    private let deliver: @Sendable (KeyRequest, KeyResult, String?) -> Void
    private(set) var thread: Thread?

    init(deliver: @escaping @Sendable (KeyRequest, KeyResult, String?) -> Void) {
        self.deliver = deliver
        let thread = Thread { [unowned self] in self.loop() }
        thread.name = "chestd-seal"
        thread.qualityOfService = .utility
        self.thread = thread
        thread.start()
    }

    /// Queues a request, or answers `.busy` when the queue of cell tries is full.
    func submit(_ request: KeyRequest) {
        condition.lock()
        let isCell = request.cell != nil
        if isCell && cells.count >= Self.capacity {
            condition.unlock()
            deliver(request, .busy, nil)
            return
        }
        if isCell { cells.append(request) } else { people.append(request) }
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
            let request = people.isEmpty ? cells.removeFirst() : people.removeFirst()
            condition.unlock()
            var pageKey: [UInt8]?
            let result = PageSealer.open(request, pageKey: &pageKey)
            // The proof key is made here, while the page key is known; only it is kept (docs/HUNTS.md "Proof of opening").
            var proofKey: String?
            if case .opened = result, let pageKey { proofKey = Data(ReceiptProof.key(pageKey: pageKey)).base64EncodedString() }
            deliver(request, result, proofKey)
        }
    }
}
