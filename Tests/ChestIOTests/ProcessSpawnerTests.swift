import Foundation
import Glibc
import Testing

@testable import ChestIO

/// Children hold only the descriptors they were given (`ProcessSpawner.FileAction.closeFrom`), and a client's
/// connect to a server that stopped accepting gives up (`UnixSocket.connect(to:timeout:)`) instead of hanging.
@Suite struct ProcessSpawnerTests {
    @Test func aChildInheritsNoneOfOurOpenDescriptors() throws {
        let inherited = open("/dev/null", O_RDONLY)  // no O_CLOEXEC: a child would keep it
        #expect(inherited > 2)
        defer { close(inherited) }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("fds-\(UUID().uuidString)").path
        defer { unlink(output) }
        for closing in [true, false] {
            let pid = try ProcessSpawner.spawn(
                "/bin/sh", arguments: ["-c", "ls /proc/$$/fd > '\(output)'"], environment: [:],
                fileActions: closing ? [.closeFrom(3)] : [])
            #expect(ProcessSpawner.wait(for: pid) == 0)
            let listed = Set(
                try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").compactMap { Int32($0) })
            #expect(listed.contains(inherited) == !closing, "\(listed) with closeFrom: \(closing)")
        }
    }

    @Test func connectingToAFullBacklogGivesUpAfterItsTimeout() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "full-\(UUID().uuidString.prefix(8)).sock"
        ).path
        let listener = try UnixSocket.make(SOCK_STREAM)
        defer {
            listener.close()
            unlink(path)
        }
        let bound = try UnixSocketAddress(path: path).withSockaddr { bind(listener.rawValue, $0, $1) }
        #expect(bound == 0 && listen(listener.rawValue, 0) == 0)
        var connected: [FileDescriptor] = []
        defer { connected.forEach { $0.close() } }
        let start = Date()
        var failure: SystemCallError?
        // Nobody accepts: the backlog fills after a connection or two, and the next connect waits its timeout.
        for _ in 0..<8 {
            do {
                connected.append(try UnixSocket.connect(to: path, timeout: 1))
            } catch {
                failure = error
                break
            }
        }
        #expect(failure?.errno.rawValue == EAGAIN, "\(String(describing: failure))")
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(
            ControlClientError(connecting: path, try #require(failure)).description.contains("takes no new connections")
        )
    }
}
