import ChestCore
import ChestIO
import ChestTestSupport
import Foundation
import Testing

@testable import ChestDaemon

/// chestd keeps its sealed pages' bytes and its messages' signatures in a file of its own, off its heap
/// (docs/BENCHMARKS.md "Memory"), and still has all of them when the chest directory is deleted under it: the files it writes back hold every byte, and the
/// page opens.
@Suite(.timeLimit(.minutes(5)))
struct ParkedPageTests {
    @Test func aParkedPageComesBackWholeWhenTheChestIsDeletedAndStillOpens() throws {
        let harness = try DaemonHarness()
        let id = try DaemonFixture.dropSealedMessage(harness)
        let original = try MessageFile.decode(Data(contentsOf: URL(fileURLWithPath: harness.chest + "/sealed.locked")))
        try harness.start()
        try harness.turn(until: "the message is taken in") { harness.daemon.engine.entries[id] != nil }
        let kept = try #require(harness.daemon.engine.entries[id]?.message.pages.first?.sealed)
        #expect(kept.isParked, "the page's bytes are not on chestd's heap")
        let seal = try #require(harness.daemon.engine.entries[id]?.message.seal)
        #expect(seal.signatureIsParked, "nor is the message's signature")

        try FileManager.default.removeItem(atPath: harness.chest)
        let path = harness.chest + "/messages/\(id.rawValue).locked"
        try harness.turn(until: "the chest is written back") { FileManager.default.fileExists(atPath: path) }
        let restored = try MessageFile.decode(Data(contentsOf: URL(fileURLWithPath: path)))
        let page = try #require(restored.pages.first?.sealed)
        let before = try #require(original.pages.first?.sealed)
        #expect(page.ciphertext == before.ciphertext)
        #expect(page.slots == before.slots)
        #expect(restored.seal?.signature == original.seal?.signature)
        #expect(restored == original)

        try harness.connectGPS()
        try harness.walk(to: DaemonFixture.target)
        try harness.turn(until: "the restored page opens") { !harness.openPages(id).isEmpty }
    }
}
