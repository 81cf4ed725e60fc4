import ChestCore
import ChestSeal
import Foundation

/// Argon2id work off the loop (docs/DESIGN.md "Sealed pages"): one thread of its own, never the loop nor the
/// async pool, with a bounded queue. Cell tries beyond the bound are answered `.busy` at once (the engine asks
/// again when the reader settles again); PIN tries are always queued, ahead of cells, since a person waits.
/// Derived keys are kept (`DerivedKeys`): places laid on one grid share a cell's key, so a cell whose derivation is
/// known or queued costs no Argon2id run and does not count against the bound.
final class SealWorker: @unchecked Sendable {
    /// Cell tries waiting at most: a walk past many sealed locks cannot pile work up.
    static let capacity = 16

    private let condition = NSCondition()
    private var people: [KeyRequest] = []
    private var cells: [KeyRequest] = []
    private var stopped = false
    /// Touched only on the worker's thread, except `holds`, read under the condition's lock.
    private var keys = DerivedKeys()
    private let deliver: @Sendable (KeyRequest, KeyResult) -> Void
    private(set) var thread: Thread?

    init(deliver: @escaping @Sendable (KeyRequest, KeyResult) -> Void) {
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
        let shared = request.derivation.map { derivation in
            keys.holds(derivation) || cells.contains { $0.derivation == derivation }
        } ?? false
        if isCell && !shared && cells.count(where: { $0.derivation.map { !keys.holds($0) } ?? true }) >= Self.capacity {
            condition.unlock()
            deliver(request, .busy)
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
            var keys = self.keys
            condition.unlock()
            let result = PageSealer.open(request, keys: &keys)
            condition.lock()
            self.keys = keys
            condition.unlock()
            deliver(request, result)
        }
    }
}
