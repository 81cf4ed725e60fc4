import Foundation
import Glibc
import Synchronization

/// HTTP/1.0 over a plain socket to a server on this machine, as a browser's first requests are: for the board in a
/// browser, without an HTTP stack in the tests.
package enum WebClient {
    package struct Response: Sendable {
        package var status: Int
        /// Header names in lower case; a header sent twice keeps its last value.
        package var headers: [String: String]
        package var body: String
    }

    /// Connects to `host`:`port` (an IPv4 address); from `source` when given (another loopback address, 127.0.0.2,
    /// stands for another client).
    package static func connect(host: String, port: Int, from source: String? = nil) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                close(fd)
                throw WebClientError("cannot connect from \(source): \(String(cString: strerror(errno)))")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr(host)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw WebClientError("cannot connect to \(host):\(port): \(String(cString: strerror(errno)))")
        }
        return fd
    }

    static func send(_ fd: Int32, method: String, path: String, headers: [String: String]) {
        let request =
            "\(method) \(path) HTTP/1.0\r\nHost: localhost\r\n"
            + headers.map { "\($0.key): \($0.value)\r\n" }.joined() + "\r\n"
        _ = request.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    /// One request; the server closes the connection after the response.
    package static func request(
        _ method: String = "GET", port: Int, path: String, headers: [String: String] = [:],
        host: String = "127.0.0.1"
    ) throws -> Response {
        let fd = try connect(host: host, port: port)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        send(fd, method: method, path: path, headers: headers)
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        let text = String(decoding: data, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { throw WebClientError("no HTTP response: \(text)") }
        let lines = text[..<end.lowerBound].components(separatedBy: "\r\n")
        guard let status = lines.first?.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw WebClientError("no HTTP status: \(text)")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return Response(status: status, headers: headers, body: String(text[end.upperBound...]))
    }
}

/// `GET /events` held open, its lines read on a thread of their own and stamped with the time each arrived, so a
/// test can say how soon after the board believed something a browser heard of it.
package final class EventStreamReader: Sendable {
    private let fd: Int32
    private final class Shared: Sendable {
        let list = Mutex<[(at: Date, line: String)]>([])
        /// Whether the connection is still open: the reading thread closes it, and a shutdown after that would hit
        /// whatever socket took the number.
        let open = Mutex(true)
    }

    private let received = Shared()

    package init(port: Int, path: String = "/events", headers: [String: String] = [:], from source: String? = nil)
        throws
    {
        fd = try WebClient.connect(host: "127.0.0.1", port: port, from: source)
        WebClient.send(fd, method: "GET", path: path, headers: headers)
        // The thread closes the connection when it has read its end: closed from here while the thread could
        // still call recv(2), the number could meanwhile belong to another test's socket.
        let thread = Thread { [fd, received] in
            defer {
                received.open.withLock { open in
                    Glibc.close(fd)
                    open = false
                }
            }
            var pending = Data()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count <= 0 { return }
                let now = Date()
                pending.append(contentsOf: buffer[0..<count])
                while let newline = pending.firstIndex(of: 0x0a) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    received.list.withLock { $0.append((now, line)) }
                }
            }
        }
        thread.start()
    }

    /// Every line so far, with when it arrived.
    package var lines: [(at: Date, line: String)] { received.list.withLock { $0 } }

    /// Whether the connection is still open: false once the server ended it (or `close` did).
    package var isOpen: Bool { received.open.withLock { $0 } }

    /// Ends the connection (the reading thread ends with it, and closes it).
    package func close() {
        received.open.withLock { open in
            if open { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    deinit { close() }
}

package struct WebClientError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
