import ChestCore
import Foundation
import Glibc

/// The command line's side of the control socket: one request line, then reply lines.
public final class ControlClient {
    private let fd: Int32
    private var buffer = Data()

    /// Connects to the daemon, or says that it is not running and how to start it.
    public init(socketPath: String) throws(ChestError) {
        do {
            fd = try UnixSocket.connect(to: socketPath)
        } catch {
            switch error.errno.rawValue {
            case ENOENT, ECONNREFUSED:
                throw ChestError("chestd is not running (nothing answers on \(socketPath)); start it with `chestd &` or `systemctl --user start chestd`")
            case EACCES:
                throw ChestError("cannot reach chestd at \(socketPath): permission denied (it belongs to another user)")
            default:
                throw ChestError("cannot reach chestd at \(socketPath): \(error.errno)")
            }
        }
    }

    deinit { close(fd) }

    /// Sends a request and decodes the single reply.
    public func call<Result: Codable & Sendable>(_ request: ControlRequest, expecting: Result.Type,
                                                 timeout: Double = 30) throws(ChestError) -> Result {
        try send(request)
        guard let line = try nextLine(timeout: timeout) else {
            throw ChestError("chestd closed the connection without answering; see its log")
        }
        return try Self.decode(line, as: Result.self)
    }

    public func send(_ request: ControlRequest) throws(ChestError) {
        var data = try! JSONEncoder().encode(request)
        data.append(0x0a)
        do {
            try writeAll(data, to: fd)
        } catch {
            throw ChestError("cannot talk to chestd: \(error.errno)")
        }
    }

    /// The next line from the daemon, nil at end of stream; waits at most `timeout` seconds (forever if nil).
    public func nextLine(timeout: Double?) throws(ChestError) -> Data? {
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
                if left <= 0 { throw ChestError("chestd did not answer within \(Int(timeout ?? 0)) s") }
                wait = Int32(min(left * 1000, 1_000_000))
            }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, wait)
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            let count = read(fd, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return buffer.isEmpty ? nil : buffer }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// Decodes a reply line, turning `{"ok": false}` into the daemon's error sentence.
    public static func decode<Result: Codable & Sendable>(_ line: Data, as: Result.Type) throws(ChestError) -> Result {
        guard let reply = try? ChestJSON.decoder().decode(ControlReply<Result>.self, from: line) else {
            throw ChestError("chestd sent a reply this chest cannot read (are both the same version?)")
        }
        guard reply.ok, let result = reply.result else { throw ChestError(reply.error ?? "chestd refused the request") }
        return result
    }
}
