import ChestCore
import ChestSeal
import ChestTestSupport
import Foundation
import Testing

@testable import ChestDaemon

/// The seal worker's queue: cells run in the order the engine handed them over, a person's PIN goes ahead of them,
/// and a key the worker recovered reaches the engine through the loop (docs/ARCHITECTURE.md "Threads").
@Suite(.timeLimit(.minutes(5)))
struct SealQueueTests {
    @Test func cellsRunInTheEnginesOrderAndAPINGoesAheadOfThem() throws {
        let id = MessageID(bytes: Sealer.randomBytes(16))
        let grid = CellGrid(center: DaemonFixture.target, radius: 30)
        let page = PageSealer.seal(
            text: "t",
            setA: .init(locks: [.sealedLocation(grid)], hidden: SearchArea(center: DaemonFixture.target, radius: 30)),
            setB: .init(locks: []), id: id, page: 1, cost: SealCost(passes: 1, memory: 8 << 20))
        let cell = grid.cell(of: DaemonFixture.target)
        let cells = (1...3).map { Cell(x: cell.x + $0, y: cell.y) }
        let requests = try cells.map { try #require(KeyRequest(id: id, page: 1, set: .a, of: page.sealed!, cell: $0)) }
        let heard = Heard()
        let worker = SealWorker(starting: false) { outcome in
            switch outcome {
            case let .derived(request, _, _): heard.append("cell \(request.cell!.x - cell.x)")
            case .pinChecked: heard.append("pin")
            }
        }
        defer { worker.stop() }
        for request in requests { worker.submit(request) }
        worker.check(id, pin: "1234", hashes: [:])
        #expect(worker.queued == 4)
        worker.start()
        try waitUntil("the worker has answered everything", timeout: 120) { heard.items.count == 4 }
        #expect(heard.items == ["pin", "cell 1", "cell 2", "cell 3"])
    }

    @Test func aKeyTheWorkerRecoveredReachesTheEngineAndOpensThePage() throws {
        let harness = try DaemonHarness()
        let id = try DaemonFixture.dropSealedMessage(harness)
        try harness.start()
        try harness.turn(until: "the message is taken in") { harness.daemon.engine.entries[id] != nil }
        try harness.connectGPS()
        try harness.walk(to: DaemonFixture.target)
        try harness.turn(until: "the sealed page opens") { !harness.openPages(id).isEmpty }
        #expect(harness.daemon.store.savedState(id)?.openPages.count == 1, "opened and kept")
    }
}

/// What the worker's thread handed back, in order.
final class Heard: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []

    func append(_ item: String) { lock.withLock { list.append(item) } }
    var items: [String] { lock.withLock { list } }
}
