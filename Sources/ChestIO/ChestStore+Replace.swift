import ChestCore
import FoundationEssentials
import Glibc

extension ChestStore {
    /// Replaces a stored message by a newer version of itself, as a staged inbox file moved into place. The state
    /// is written first: a crash between the two writes leaves the older file with a state that keeps only what
    /// both versions share, which grants the older version nothing it had not earned (docs/QUEST.md).
    package func replace(_ stored: StoredMessage, staged path: String) throws(SystemCallError) {
        try saveState(stored.id, stored.state)
        try AtomicFile.adopt([(path, messagePath(stored.id, in: stored.chest))])
    }

    /// The same, from the sealed bytes `chest import` read.
    package func replace(_ stored: StoredMessage, bytes: Data) throws(SystemCallError) {
        try saveState(stored.id, stored.state)
        try AtomicFile.write(batch: [(messagePath(stored.id, in: stored.chest), bytes)])
    }
}
