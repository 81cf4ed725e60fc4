import ChestCore
import ChestTestSupport
import Foundation
import Glibc
import Testing
@testable import ChestWeb

/// The hostile tester's finding (docs/HUNTS.md "The board in a browser"): 1,030 requests that never end took every
/// one of libmicrohttpd's thread-per-connection slots, and honest screens were reset until they closed. Now 1,100
/// such connections from many addresses, and more from one address than it may open, leave an honest request with
/// the token answered and an event stream live. The 5,000-connection figure is scripts/bench-city.sh's.
@Suite(.realProcesses, .timeLimit(.minutes(2)))
struct SlowConnectionTests {
    static let token = "slow-connections-token-0123456789"

    @Test func honestScreensAreAnsweredUnderElevenHundredSlowConnections() throws {
        let server = try BoardServer(address: HTTPAddress("127.0.0.1:0")!, access: BoardAccess(token: Self.token),
                                     snapshot: BoardDay.snapshot(teams: 2), timeZone: TimeZone(identifier: "UTC")!)
        defer { server.stop() }
        let port = server.address.port
        // An event stream opened before the flood, which must keep receiving through it.
        let stream = try Self.connect(port, from: "127.0.0.1")
        defer { close(stream) }
        try Self.send(stream, "GET /events?token=\(Self.token) HTTP/1.1\r\nHost: board\r\n\r\n")
        #expect(try Self.read(stream, until: "event: sections").contains("200 OK"))

        // 1,100 requests that never end, 50 from each of 22 addresses, and 200 from one more address, over its limit.
        var slow: [Int32] = []
        defer { for socket in slow { close(socket) } }
        for index in 0..<1_300 {
            let address = index < 1_100 ? "127.0.1.\(2 + index / 50)" : "127.0.2.2"
            let socket = try Self.connect(port, from: address)
            slow.append(socket)
            _ = try? Self.send(socket, "GET /board.json HTTP/1.1\r\nHost: board\r\nX-Slow: ")
        }

        // The honest screen: its request with the token is answered, with the board.
        let honest = try Self.connect(port, from: "127.0.0.1")
        defer { close(honest) }
        try Self.send(honest, "GET /board.json?token=\(Self.token) HTTP/1.0\r\n\r\n")
        let answer = try Self.read(honest, until: nil)
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(200))")
        #expect(answer.contains("application/json"), "\(answer.prefix(300))")

        // The stream, parked while nothing happened, is woken by the board's next change.
        server.publish(BoardDay.snapshot(teams: 3), events: [.refused(reason: "malformed", team: nil, why: "under siege")])
        let more = try Self.read(stream, until: "under siege")
        #expect(more.contains("event: board"), "\(more.prefix(300))")

        // Connections over the per-address limit were refused at once: the board closed them.
        let refused = Self.closed(Array(slow.suffix(200)))
        #expect(refused >= 200 - HTTPServer.Limits().perAddress, "\(refused) of 200 from one address refused")
    }

    // MARK: Sockets

    static func connect(_ port: UInt16, from source: String) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(socket >= 0, "socket: \(String(cString: strerror(errno)))")
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var local = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: 0, sin_addr: in_addr(s_addr: inet_addr(source)),
                                sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        var remote = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: port.bigEndian,
                                 sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(socket)
            throw SocketFailure(description: "connect from \(source): \(reason)")
        }
        return socket
    }

    static func send(_ socket: Int32, _ text: String) throws {
        let bytes = Array(text.utf8)
        guard Glibc.send(socket, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
            throw SocketFailure(description: "send: \(String(cString: strerror(errno)))")
        }
    }

    /// What arrives until `marker` has (or, when nil, until the end); throws after the socket's 20 s timeout.
    static func read(_ socket: Int32, until marker: String?) throws -> String {
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count == 0, marker == nil { return text }
            guard count > 0 else { throw SocketFailure(description: "recv: \(count == 0 ? "closed" : String(cString: strerror(errno))); got \(text.prefix(300))") }
            text += String(decoding: buffer[..<count], as: UTF8.self)
            if let marker, text.contains(marker) { return text }
        }
    }

    /// How many of `sockets` the peer closed (end of file, reset or hang-up), waiting up to 5 s for them.
    static func closed(_ sockets: [Int32]) -> Int {
        var closed = 0
        let deadline = Date().addingTimeInterval(5)
        repeat {
            var polled = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&polled, nfds_t(polled.count), 200)
            closed = polled.count { $0.revents != 0 }
        } while closed < sockets.count && Date() < deadline
        return closed
    }

    struct SocketFailure: Error, CustomStringConvertible { let description: String }
}
