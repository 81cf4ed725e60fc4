import ChestCore
import FoundationEssentials
import Glibc

/// The command line's side of the control socket: one request line, then reply lines.
package final class ControlClient {
    private let fd: FileDescriptor
    private var buffer = Data()

    /// Connects to the daemon, or says that it is not running and how to start it. Before anything is sent, the
    /// socket's folder must be this user's alone and the process listening this user's (`SO_PEERCRED`), as chestd
    /// itself requires: anyone else's socket there would receive the PINs and answers (docs/SECURITY.md).
    package init(socketPath: String) throws(ControlClientError) {
        let connected: FileDescriptor
        do {
            connected = try UnixSocket.connect(to: socketPath)
        } catch {
            throw ControlClientError(connecting: socketPath, error)
        }
        if let reason = SocketDirectory.whyUntrusted(directoryName(socketPath)) {
            connected.close()
            throw .untrustedFolder(socket: socketPath, reason: reason)
        }
        guard let peer = UnixSocket.peerUID(connected), peer == getuid() else {
            let peer = UnixSocket.peerUID(connected)
            connected.close()
            throw .untrustedPeer(socket: socketPath, uid: peer)
        }
        fd = connected
    }

    deinit { fd.close() }

    /// Sends a request and decodes the single reply.
    package func call<Result: Codable & Sendable>(
        _ request: ControlRequest, expecting: Result.Type,
        timeout: Double = 30
    ) throws(ControlClientError) -> Result {
        try send(request)
        guard let line = try nextLine(timeout: timeout) else { throw .connectionClosed }
        return try Self.decode(line, as: Result.self)
    }

    package func send(_ request: ControlRequest) throws(ControlClientError) {
        var data = try! JSONEncoder().encode(request)
        data.append(0x0a)
        do {
            try fd.sendAll(data)
        } catch {
            throw .sendFailed(error.errno)
        }
    }

    /// The next line from the daemon, nil at end of stream; waits at most `timeout` seconds (forever if nil).
    package func nextLine(timeout: Double?) throws(ControlClientError) -> Data? {
        let deadline = timeout.map { MonotonicClock.now() + $0 }
        while true {
            if let newline = buffer.firstIndex(of: 0x0a) {
                let line = buffer[buffer.startIndex..<newline]
                buffer = Data(buffer[(newline + 1)...])
                return Data(line)
            }
            var wait: Int32 = -1
            if let deadline {
                let left = deadline - MonotonicClock.now()
                if left <= 0 { throw .timedOut(seconds: Int(timeout ?? 0)) }
                wait = Int32(min(left * 1000, 1_000_000))
            }
            guard fd.waitForInput(milliseconds: wait) else { continue }
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            let count = (try? fd.read(into: &chunk)) ?? -1
            if count <= 0 { return buffer.isEmpty ? nil : buffer }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// Decodes a reply line, turning `{"ok": false}` into the daemon's error sentence.
    package static func decode<Result: Codable & Sendable>(
        _ line: Data, as: Result.Type
    ) throws(ControlClientError) -> Result {
        guard let reply = try? ChestJSON.decoder().decode(ControlReply<Result>.self, from: line) else {
            throw .malformedReply
        }
        guard reply.ok, let result = reply.result else { throw .refused(reply.error ?? "chestd refused the request") }
        return result
    }
}
