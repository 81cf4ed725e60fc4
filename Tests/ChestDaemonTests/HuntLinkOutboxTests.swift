import ChestCore
import ChestIO
import ChestMQTT
import Foundation
import Testing

@testable import ChestDaemon

/// HuntLink's outbox, through the daemon's loop: a receipt made while the broker is away waits on disk and leaves in
/// order when the broker is back; what the broker acknowledged leaves the disk (docs/ARCHITECTURE.md "The path of
/// an unlock's receipt").
@Suite(.timeLimit(.minutes(5)))
struct HuntLinkOutboxTests {
    @Test func aReceiptWaitsOnDiskWhileTheBrokerIsAwayAndLeavesInOrderWhenItConnects() throws {
        let harness = try DaemonHarness()
        let hunt = try DaemonFixture.joinHunt(harness)
        let id = try DaemonFixture.dropLocationMessage(harness)
        try harness.start()
        try harness.turn(until: "the message is taken in") { harness.daemon.engine.entries[id] != nil }
        let broker = try #require(harness.brokers.last, "joining the hunt makes a broker client")
        #expect(broker.started && broker.options.username == "red")
        #expect(broker.subscriptions.contains(HuntTopic.releases(hunt: hunt.id)))

        try harness.connectGPS()
        try harness.walk(to: DaemonFixture.target)
        let receiptTopic = "chest/\(hunt.id)/red/receipt/"
        try harness.turn(until: "the receipt is in the outbox") {
            try harness.outboxOnDisk().contains { $0.topic.hasPrefix(receiptTopic) }
        }
        #expect(harness.openPages(id).count == 1)
        #expect(broker.published.isEmpty, "nothing leaves while the broker is away")
        let waiting = try harness.outboxOnDisk()

        broker.connect()
        try harness.turn(until: "the outbox is sent") { broker.published.count >= waiting.count }
        #expect(
            Array(broker.published.prefix(waiting.count).map { $0.message.topic }) == waiting.map { $0.topic },
            "oldest first, as they were put in")
        #expect(broker.published.allSatisfy { $0.message.qos == 1 })
        #expect(try harness.outboxOnDisk().count >= waiting.count, "kept until the broker acknowledges")

        broker.acknowledgeAll()
        try harness.turn(until: "the acknowledged entries leave the disk") { try harness.outboxOnDisk().isEmpty }
        #expect(harness.daemon.engine.hunt?.outbox == 0)
    }
}
