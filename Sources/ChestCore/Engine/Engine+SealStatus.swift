import struct FoundationEssentials.Data

/// What the seal is doing, for `chest status`, and whose turn a message's cells take.
extension Engine {
    /// The memory of the fixes kept for late keys: bytes a kept fix takes, the window kept always, and the most fixes a
    /// full queue holds beyond it (docs/BENCHMARKS.md "Sealed pages (format 3)").
    package static var keptFixesMemory: (bytesPerFix: Int, window: Int, mostPinned: Int) {
        (MemoryLayout<FixHistory.Entry>.stride, FixHistory.epochs, CellQueue.limit * CellQueue.pinsPerCell)
    }

    /// Sealed location locks still watched, cells tried (failed) across the chest, derivations under way, cells
    /// waiting for their key (with the worker or queued) and about how long they will take.
    package var sealSummary: (pending: Int, cellsTried: Int, deriving: Int, cellsWaiting: Int, secondsLeft: Double) {
        (
            seal.watches.count, entries.values.reduce(0) { $0 + $1.state.seal.cellsTried },
            seal.pending.count + seal.cells.count,
            seal.cells.count, seal.cells.secondsLeft
        )
    }
}

extension StoredMessage {
    /// Whose turn a message's cells take in the queue (`CellQueue`): its sender's key, so one sender's messages share
    /// one turn; a message without a seal is its own.
    var sealOwner: String { message.seal.map { Data($0.publicKey).base64EncodedString() } ?? id.rawValue }
}
