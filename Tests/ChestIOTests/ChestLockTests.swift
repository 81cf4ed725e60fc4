import ChestIO
import Foundation
import Glibc
import Testing

/// One chestd per chest (`ChestLock`), and a lock released twice.
@Suite struct ChestLockTests {
    static func chest() throws -> String { try Directory.makeTemporary("chest-lock") }

    @Test func aSecondLockOnTheSameChestIsRefusedWithTheHoldersPid() throws {
        let root = try Self.chest()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let lock = try ChestLock(root: root)
        defer { lock.release() }
        // flock(2) locks belong to the open file description: a second open in this process is refused too.
        #expect(throws: ChestError.self) { try ChestLock(root: root) }
        do {
            _ = try ChestLock(root: root)
        } catch {
            #expect(error.description.contains("pid \(getpid())"), "\(error)")
        }
    }

    /// chestd released its lock on each restore of a removed chest and kept the released lock when the new one could
    /// not be taken; the next restore released it again and closed whatever descriptor had the number by then (a
    /// client's connection: "chestd closed the connection without answering").
    @Test func releasingTwiceClosesNoOtherDescriptor() throws {
        let root = try Self.chest()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let lock = try ChestLock(root: root)
        lock.release()
        // New descriptors take the lowest free numbers: one of these gets the number the lock had.
        let others = (0..<32).map { _ in open("/dev/null", O_RDONLY | O_CLOEXEC) }
        defer { others.forEach { close($0) } }
        #expect(others.allSatisfy { $0 >= 0 })
        lock.release()
        let closed = others.filter { fcntl($0, F_GETFD) == -1 }
        #expect(closed.isEmpty, "the second release closed descriptor \(closed)")
        // Released, the chest can be locked again.
        try ChestLock(root: root).release()
    }
}
