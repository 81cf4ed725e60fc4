import CMicroHTTPD
import Foundation
import Glibc

/// A request, as far as the board reads one.
struct HTTPRequest {
    var method: String
    var path: String
    /// A `?name=value` argument of the URL.
    var argument: (String) -> String?
    /// A cookie the browser sent.
    var cookie: (String) -> String?
}

/// A response: bytes, or a stream the server reads until it ends.
struct HTTPResponse {
    enum Body {
        case bytes(Data)
        case stream(any HTTPStreamSource)
    }

    var status: UInt32
    var headers: [(String, String)]
    var body: Body
}

/// An endless body (Server-Sent Events): `read` blocks on the connection's own thread until it has bytes, and
/// returns nil to end the response.
protocol HTTPStreamSource: AnyObject, Sendable {
    func read() -> Data?
    /// The connection is gone: called once, on one of libmicrohttpd's threads.
    func closed()
}

/// GNU libmicrohttpd, thinly (docs/ARCHITECTURE.md "The board in a browser"): one thread that accepts and one thread
/// per connection, both libmicrohttpd's. `handle` runs on a connection's thread, for each request; it must not
/// touch anything the caller's threads change without a lock.
final class HTTPServer: Sendable {
    typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    /// What libmicrohttpd's C callbacks get as their context: the handler.
    private final class Context: Sendable {
        let handle: Handler
        init(_ handle: @escaping Handler) { self.handle = handle }
    }

    /// A stream's source with the bytes it read and the server has not yet taken. libmicrohttpd calls a response's
    /// reader from the connection's thread only, one call at a time.
    private final class Pending: @unchecked Sendable {
        let source: any HTTPStreamSource
        var bytes = Data()
        init(_ source: any HTTPStreamSource) { self.source = source }
    }

    private nonisolated(unsafe) let daemon: OpaquePointer
    private let context: Unmanaged<Context>
    /// The port it listens on (the one the kernel chose when asked for port 0).
    let port: UInt16

    init(address: HTTPAddress, handle: @escaping Handler) throws(HTTPServerError) {
        let context = Unmanaged.passRetained(Context(handle))
        var flags = MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue
            | MHD_USE_AUTO.rawValue
        if address.host.contains(":") { flags |= MHD_USE_IPv6.rawValue }
        let started = address.withSocketAddress { socketAddress in
            chest_mhd_start(flags, socketAddress, Self.access, context.toOpaque(), 60, 0)
        }
        guard let started, let daemon = started else {
            let code = errno
            context.release()
            let hint = switch code {
            case EADDRINUSE: "; another program listens there: choose another port"
            case EADDRNOTAVAIL: "; this machine has no such address (0.0.0.0 listens on all of them)"
            case EACCES: "; a port under 1024 needs root: choose another port"
            default: ""
            }
            throw HTTPServerError("cannot listen on \(address): \(String(cString: strerror(code)))\(hint)")
        }
        self.daemon = daemon
        self.context = context
        port = chest_mhd_bound_port(daemon)
    }

    /// Stops accepting and ends every connection; streams must have been told to end first.
    func stop() {
        MHD_stop_daemon(daemon)
        context.release()
    }

    private static let access: MHD_AccessHandlerCallback = { context, connection, url, method, _, _, _, _ in
        guard let context, let connection, let url, let method else { return .NO }
        let handler = Unmanaged<Context>.fromOpaque(context).takeUnretainedValue()
        func value(_ kind: MHD_ValueKind, _ name: String) -> String? {
            MHD_lookup_connection_value(connection, kind, name).map { String(cString: $0) }
        }
        let request = HTTPRequest(method: String(cString: method), path: String(cString: url),
                                  argument: { value(.GET_ARGUMENT_KIND, $0) }, cookie: { value(.COOKIE_KIND, $0) })
        let reply = handler.handle(request)
        let response: OpaquePointer?
        switch reply.body {
        case let .bytes(data):
            response = data.withUnsafeBytes { bytes in
                MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                                .RESPMEM_MUST_COPY)
            }
        case let .stream(source):
            let pending = Unmanaged.passRetained(Pending(source))
            response = MHD_create_response_from_callback(UInt64.max, 64 << 10, HTTPServer.read, pending.toOpaque(), HTTPServer.free)
            if response == nil { pending.release() }
        }
        guard let response else { return .NO }
        for (name, value) in reply.headers { MHD_add_response_header(response, name, value) }
        let queued = MHD_queue_response(connection, UInt32(reply.status), response)
        MHD_destroy_response(response)
        return queued
    }

    /// Fills libmicrohttpd's buffer from the stream, blocking in the source until it has something.
    private static let read: MHD_ContentReaderCallback = { context, _, buffer, maximum in
        guard let context, let buffer else { return -2 }
        let pending = Unmanaged<Pending>.fromOpaque(context).takeUnretainedValue()
        if pending.bytes.isEmpty {
            guard let more = pending.source.read() else { return -2 }  // MHD_CONTENT_READER_END_WITH_ERROR
            pending.bytes = more
        }
        let count = min(maximum, pending.bytes.count)
        pending.bytes.withUnsafeBytes { buffer.update(from: $0.bindMemory(to: CChar.self).baseAddress!, count: count) }
        pending.bytes.removeFirst(count)
        return count
    }

    private static let free: MHD_ContentReaderFreeCallback = { context in
        guard let context else { return }
        let pending = Unmanaged<Pending>.fromOpaque(context).takeRetainedValue()
        pending.source.closed()
    }
}

struct HTTPServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
