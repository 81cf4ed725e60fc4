import ChestCore
import Foundation
import Testing

@testable import ChestDaemon
@testable import ChestIO

/// The order of Daemon+Effects: a state is on disk before anything tells of it, so a write that fails tells nothing
/// (docs/ARCHITECTURE.md "The engine and its edges").
@Suite(.timeLimit(.minutes(5)))
struct EffectOrderTests {
    @Test func anUnlockWhoseStateCannotBeWrittenIsNeitherKeptNorSentAsAReceipt() throws {
        let harness = try DaemonHarness()
        let hunt = try DaemonFixture.joinHunt(harness)
        let id = try DaemonFixture.dropLocationMessage(harness)
        try harness.start()
        try harness.turn(until: "the message is taken in") { harness.daemon.engine.entries[id] != nil }
        // A directory where the state file goes: the atomic write's rename fails, even as root.
        let statePath = harness.daemon.store.statePath(id)
        try? FileManager.default.removeItem(atPath: statePath)
        try FileManager.default.createDirectory(atPath: statePath + "/blocked", withIntermediateDirectories: true)
        let broker = try #require(harness.brokers.last)
        broker.connect()
        try harness.connectGPS()
        try harness.walk(to: DaemonFixture.target, fixes: 8)
        try harness.turn(until: "the fixes are read") {
            harness.lastFix(isAt: DaemonFixture.target)
        }
        let receipts = broker.published.filter { $0.message.topic.contains("/red/receipt/") }
        #expect(receipts.isEmpty, "a receipt left before its page was on disk")
        #expect(try harness.outboxOnDisk().allSatisfy { !$0.topic.contains("/red/receipt/") })
        #expect(harness.openPages(id).isEmpty, "the engine went back to the state on disk")

        // Once the state can be written, the next fixes open it and only then send its receipt.
        try FileManager.default.removeItem(atPath: statePath)
        try harness.walk(to: DaemonFixture.target, fixes: 5)
        try harness.turn(until: "the receipt is sent") {
            broker.published.contains { $0.message.topic.hasPrefix("chest/\(hunt.id)/red/receipt/") }
        }
        #expect(
            FileManager.default.fileExists(atPath: statePath), "the state is on disk by the time the receipt leaves")
        #expect(harness.openPages(id).count == 1)
    }
}
