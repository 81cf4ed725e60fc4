import ChestTestSupport
import Foundation
import Glibc
import Testing

/// The fake gpsd of the GPS tests answers only for itself: a stopped one whose thread was still serving a client
/// never takes the clients of the next one (whose listener may get the same descriptor number).
@Suite(.timeLimit(.minutes(1)))
struct LineServerTests {
    /// A TCP connection to 127.0.0.1:`port`.
    func connect(_ port: Int) throws -> Int32 { try WebClient.connect(host: "127.0.0.1", port: port) }

    /// The first line the server sends on `fd`.
    func firstLine(_ fd: Int32) -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while recv(fd, &byte, 1, 0) == 1, byte != 0x0a { bytes.append(byte) }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func aStoppedServerNeverAnswersForTheNextOne() throws {
        let first = try LineServer(lines: ["first"])
        // Its thread is busy with this client while it is stopped and the next server starts.
        let held = try connect(first.port)
        #expect(firstLine(held) == "first")
        first.stop()
        let next = try LineServer(lines: ["next"])
        defer { next.stop() }
        close(held)
        var answers: [String] = []
        for _ in 0..<40 {
            let client = try connect(next.port)
            answers.append(firstLine(client))
            close(client)
        }
        #expect(answers.allSatisfy { $0 == "next" }, "\(answers)")
    }
}
