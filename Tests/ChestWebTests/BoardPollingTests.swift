import ChestCore
import ChestTestSupport
import Foundation
import Synchronization
import Testing

@testable import ChestWeb

/// A page whose event stream the board refuses reads `/board.json` instead (docs/HUNTS.md "Slow and idle
/// connections", issue 61): headless Chromium opens the board while its one stream is held from another address;
/// the board changes just after serving the page; the page, refused, polls, sees the new ETag and shows the change.
@Suite(.realProcesses, .tags(.process, .chromium), .serialized, .timeLimit(.minutes(5)))
struct BoardPollingTests {
    @Test func aPageRefusedItsStreamPollsBoardJSONAndShowsTheBoardsChange() throws {
        let snapshot = BoardPageTests.snapshot(share: true)
        let changed = {
            var changed = snapshot
            changed.ignored = ["malformed": 3]
            return changed
        }()
        let state = BoardServerState(access: BoardAccess(token: nil), snapshot: snapshot, timeZone: BoardPageTests.utc)
        // The board changes once the page has been served: only a page that asks again can show it.
        let pageServed = Served()
        var limits = HTTPServer.Limits()
        limits.streams = 1
        let server = try HTTPServer(address: HTTPAddress("127.0.0.1:0")!, limits: limits) { request in
            let response = state.respond(to: request)
            if request.path == "/", !pageServed.value.exchange(true, ordering: .relaxed) {
                state.publish(changed, events: [])
            }
            return response
        }
        defer {
            state.stop()
            server.stop()
        }
        let held = try EventStreamReader(port: Int(server.port), from: "127.0.0.2")
        defer { held.close() }
        try waitUntil("the held stream's first state", timeout: 30) {
            held.lines.contains { $0.line == "event: sections" } || !held.isOpen
        }
        #expect(held.lines.contains { $0.line == "event: sections" })

        // 20 s of the page's time: its poll every 5 s, not yet its new try of the stream (after 60 s).
        let run = try Chromium.run([
            "--dump-dom", "--virtual-time-budget=20000", "http://127.0.0.1:\(server.port)/",
        ])
        let html = run.stdout.components(separatedBy: "<head>").first ?? ""
        #expect(html.contains(#"data-live="polling""#), "\(html) \(run.stderr.suffix(2000))")
        #expect(html.contains(#"data-polled="1""#), "one change, one fresh copy of the page: \(html)")
        let served = pageServed.value.load(ordering: .relaxed)
        #expect(served)
        #expect(run.stdout.contains("3 malformed"), "the change reached the page: \(run.stdout.prefix(3000))")
        // The held stream was never closed for the page: every address holds one, and the page's came last.
        #expect(held.isOpen)
    }

    /// Whether the page was served, shared with the server's threads.
    final class Served: Sendable {
        let value = Atomic<Bool>(false)
    }
}
