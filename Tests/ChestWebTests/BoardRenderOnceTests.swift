import ChestCore
import ChestTestSupport
import Foundation
import Testing

@testable import ChestWeb

/// The web board renders once per change, not once per request (issue 50): two requests without a publish between
/// them are served the same rendered bytes, one after a publish is rendered again; `/board.json` is paged.
@Suite struct BoardRenderOnceTests {
    static func request(_ path: String) -> HTTPRequest {
        let (route, query) = path.split(separator: "?", maxSplits: 1).map(String.init).withDefault
        let arguments = Dictionary(
            query.split(separator: "&").map { pair -> (String, String) in
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                return (parts[0], parts.count > 1 ? parts[1] : "")
            }
        ) { a, _ in a }
        return HTTPRequest(method: "GET", path: route, argument: { arguments[$0] }, cookie: { _ in nil })
    }

    static func body(_ response: HTTPResponse) -> Data? {
        guard case let .bytes(data) = response.body else { return nil }
        return data
    }

    static func state(_ snapshot: BoardSnapshot) -> BoardServerState {
        BoardServerState(access: BoardAccess(token: nil), snapshot: snapshot, timeZone: BoardPageTests.utc)
    }

    @Test func twoRequestsWithoutAChangeAreServedOneRenderingAndAChangeRendersAgain() throws {
        let snapshot = BoardPageTests.snapshot(share: true)
        let state = Self.state(snapshot)
        for path in ["/", "/board.json", "/results"] {
            let before = state.renders.load(ordering: .relaxed)
            let first = try #require(Self.body(state.respond(to: Self.request(path))))
            let rendered = state.renders.load(ordering: .relaxed)
            let second = try #require(Self.body(state.respond(to: Self.request(path))))
            #expect(
                first == second && state.renders.load(ordering: .relaxed) == rendered,
                "\(path): rendered again without a change")
            #expect(rendered > before, "\(path) was rendered for its first request")
        }
        // A change: red's refusals grow; every path is rendered again and says so.
        var changed = snapshot
        _ = changed.board.recordRefusal(
            .malformed, topic: "chest/\(BoardPageTests.huntID)/red/receipt/8", at: BoardPageTests.t0 + 9)
        changed.ignored = ["malformed": 3]
        let json = try #require(Self.body(state.respond(to: Self.request("/board.json"))))
        state.publish(changed, events: [])
        let renders = state.renders.load(ordering: .relaxed)
        let after = try #require(Self.body(state.respond(to: Self.request("/board.json"))))
        #expect(after != json && state.renders.load(ordering: .relaxed) > renders)
        #expect(String(decoding: after, as: UTF8.self).contains(#""malformed":3"#))
        let page = try #require(Self.body(state.respond(to: Self.request("/"))))
        #expect(String(decoding: page, as: UTF8.self).contains("3 malformed"))
    }

    @Test func boardJSONIsPagedByRankWithTheEventsOnEveryPage() throws {
        var hunt = BoardPageTests.hunt(share: false)
        let count = BoardJSON.perPage * 2 + 5
        hunt.teams = (0..<count).map { index in
            HuntTeam(
                name: TeamName(String(format: "team-%04d", index))!, password: "pw-0123456789abcdef",
                publicKey: BoardPageTests.key(1), secretKey: nil)
        }
        let board = HuntBoard(hunt: hunt)
        let snapshot = BoardSnapshot(
            huntName: hunt.name, broker: hunt.broker, connection: .connected, board: board,
            sharePositions: false, targets: [], unlocks: [], refusals: [], ignored: ["malformed": 1])
        let state = Self.state(snapshot)
        var names: [String] = []
        for number in 1...3 {
            let path = number == 1 ? "/board.json" : "/board.json?page=\(number)"
            let response = state.respond(to: Self.request(path))
            #expect(response.status == 200)
            let data = try #require(Self.body(response))
            let json = try JSON(data)
            #expect(json["page"]?.int == number && json["pages"]?.int == 3 && json["teamCount"]?.int == count)
            #expect(json["ignored"] == ["malformed": 1] && json["latest"]?.array != nil)
            let teams = try #require(json["teams"]?.array)
            #expect(teams.count == (number < 3 ? BoardJSON.perPage : 5))
            names += teams.compactMap { $0["team"]?.string }
        }
        #expect(names == snapshot.board.leaderboard().map(\.name), "every team once, in rank order")
        for path in ["/board.json?page=4", "/board.json?page=0", "/board.json?page=x"] {
            #expect(state.respond(to: Self.request(path)).status == 404, "\(path)")
        }
        // A small board is one page, as before.
        let small = Self.state(BoardPageTests.snapshot(share: false))
        let data = try #require(Self.body(small.respond(to: Self.request("/board.json"))))
        let json = try JSON(data)
        #expect(json["pages"]?.int == 1 && (json["teams"]?.array)?.count == 2)
    }
}

private extension Array where Element == String {
    /// The path and the query (empty without one).
    var withDefault: (String, String) { (self[0], count > 1 ? self[1] : "") }
}
