import CMicroHTTPD
import ChestIO
import FoundationEssentials
import Glibc
import Synchronization

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

/// An endless body (Server-Sent Events), pulled by the server without blocking: `next` runs on one of
/// libmicrohttpd's threads and returns at once.
protocol HTTPStreamSource: AnyObject, Sendable {
    /// The bytes due now; empty when nothing is (the server parks the connection until `HTTPServer.wakeStreams`);
    /// nil to end the response.
    func next() -> Data?
    /// The connection is gone: called once, on one of libmicrohttpd's threads.
    func closed()
}

/// GNU libmicrohttpd, thinly (docs/ARCHITECTURE.md "The board in a browser"): a small pool of threads polling
/// every connection with epoll, not a thread per connection, so that slow or idle connections cost a descriptor
/// and a few kilobytes each rather than a thread, and cannot take every slot (docs/HUNTS.md "The board in a
/// browser"). `handle` runs on one of those threads, for each request, and must return quickly; it must not
/// touch anything the caller's threads change without a lock. An endless body is parked (libmicrohttpd's
/// suspend) while it has nothing to send and woken by `wakeStreams`.
final class HTTPServer: Sendable {
    typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    /// The defences against slow or idle connections (docs/HUNTS.md "Slow and idle connections").
    struct Limits: Sendable {
        /// Connections kept at once, from everyone: one more closes the oldest still waiting for its request
        /// (`ConnectionBudget`). Lowered to three quarters of what the process's descriptor limit leaves.
        var connections = 10_000
        /// Connections at once from one client (an IPv4 address, an IPv6 /64): more are refused as they arrive.
        var perAddress = 64
        /// Seconds a connection may stay idle (a request that never ends, a reader that never reads).
        var idleTimeout = 10
        /// Event streams kept at once: one more closes the oldest of the client holding most (`StreamBudget`), or is
        /// answered 503 when its own client would be that one.
        var streams = 1_000
        /// Event streams at once from one client (an IPv4 address, an IPv6 /64): more are answered 429.
        var streamsPerAddress = 8
        /// Threads polling the connections.
        var threads = 2
    }

    /// What libmicrohttpd's C callbacks get as their context: the handler, the open streams and the connections.
    final class Context: Sendable {
        let handle: Handler
        let limits: Limits
        let streams: Mutex<Streams>
        let connections: Mutex<Connections>
        init(_ handle: @escaping Handler, limits: Limits) {
            self.handle = handle
            self.limits = limits
            streams = Mutex(Streams(budget: StreamBudget(total: limits.streams, perClient: limits.streamsPerAddress)))
            connections = Mutex(
                Connections(budget: ConnectionBudget(total: limits.connections, perClient: limits.perAddress)))
        }
    }

    /// The streams open, and the budget's choice of which to keep.
    struct Streams {
        var budget: StreamBudget
        /// Every stream whose response exists, those being closed for a newcomer included.
        var open: [StreamBudget.ID: Stream] = [:]
        var next: StreamBudget.ID = 1
    }

    /// The budget's bookkeeping and each connection's socket, to close the ones it chooses.
    struct Connections {
        var budget: ConnectionBudget
        var sockets: [ConnectionBudget.ID: Int32] = [:]
        var next: ConnectionBudget.ID = 1

        /// Closes a connection the budget chose, on whichever thread chose it. shutdown(2), not close(2): the
        /// descriptor stays libmicrohttpd's, whose poll sees the end and closes it on its own thread; and it is
        /// still open here, since libmicrohttpd reports a connection closed (under this same lock) before it
        /// closes the descriptor, so the number cannot belong to a newer connection yet.
        func shed(_ ids: [ConnectionBudget.ID]) {
            for id in ids {
                if let socket = sockets[id] { Glibc.shutdown(socket, Int32(SHUT_RDWR)) }
            }
        }
    }

    /// One endless response: its source, the bytes read and not yet taken (touched by libmicrohttpd's reader
    /// only, one call at a time), and whether the connection is parked.
    final class Stream: @unchecked Sendable {
        struct Park {
            var suspended = false
            /// A wake-up that came while the reader was busy: it reads again instead of parking.
            var woken = false
            /// Closed for a newcomer: the reader ends the response at its next call.
            var ended = false
        }

        let id: StreamBudget.ID
        let source: any HTTPStreamSource
        let connection: OpaquePointer
        /// Its connection's number in the connection budget, to shut its socket down when it is closed.
        let connectionID: ConnectionBudget.ID?
        weak var context: Context?
        var bytes = Data()
        let park = Mutex(Park())

        init(
            _ id: StreamBudget.ID, _ source: any HTTPStreamSource, connection: OpaquePointer,
            connectionID: ConnectionBudget.ID?, context: Context
        ) {
            self.id = id
            self.source = source
            self.connection = connection
            self.connectionID = connectionID
            self.context = context
        }

        /// Ends the response and its connection, for a newcomer: the socket is shut down (libmicrohttpd's poll sees
        /// the end, as for `Connections.shed`) and a parked stream is woken so that it is polled again.
        func end() {
            park.withLock { $0.ended = true }
            if let connectionID { context?.connections.withLock { $0.shed([connectionID]) } }
            wake()
        }

        /// Resumes the connection when parked, else makes the reader look again. A parked connection is never
        /// closed by libmicrohttpd (it is not polled), so its pointer is valid while `suspended`.
        func wake() {
            park.withLock { park in
                if park.suspended {
                    park.suspended = false
                    MHD_resume_connection(connection)
                } else {
                    park.woken = true
                }
            }
        }
    }

    private nonisolated(unsafe) let daemon: OpaquePointer
    private let context: Unmanaged<Context>
    /// The port it listens on (the one the kernel chose when asked for port 0).
    let port: UInt16

    init(address: HTTPAddress, limits: Limits = Limits(), handle: @escaping Handler) throws(HTTPServerError) {
        do throws(LibraryUnavailable) { try OnDemandLibrary.microhttpd.open() } catch {
            throw HTTPServerError(error.description)
        }
        var limits = limits
        // libmicrohttpd may hold more than the budget keeps: a newcomer must get in while the connection it makes
        // room for is still closing, and the board needs descriptors of its own (the broker, the journal).
        let descriptors = max(64, Self.raiseDescriptorLimit() - 64)
        limits.connections = min(limits.connections, descriptors * 3 / 4)
        let context = Unmanaged.passRetained(Context(handle, limits: limits))
        var flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if address.host.contains(":") { flags |= MHD_USE_IPv6.rawValue }
        let started = address.withSocketAddress { socketAddress in
            chest_mhd_start(
                flags, socketAddress, Self.admit, Self.access, Self.notify, Self.completed, context.toOpaque(),
                UInt32(limits.idleTimeout), UInt32(descriptors), UInt32(limits.threads))
        }
        guard let started, let daemon = started else {
            let code = errno
            context.release()
            let hint =
                switch code {
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

    /// Raises the soft limit on open descriptors to the hard one (systemd and shells start at 1,024, far below
    /// what a board under thousands of connections needs) and returns it.
    private static func raiseDescriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1_024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(min(limit.rlim_cur, 1 << 20))
    }

    /// Streams open now.
    var streamCount: Int { context.takeUnretainedValue().streams.withLock { $0.open.count } }

    /// Makes every parked stream ask its source again.
    func wakeStreams() {
        let streams = context.takeUnretainedValue().streams.withLock { Array($0.open.values) }
        for stream in streams { stream.wake() }
    }

    /// Stops accepting and ends every connection; streams' sources must return nil from now on. Waits up to two
    /// seconds for the streams to end, since libmicrohttpd cannot stop with a connection parked.
    func stop() {
        let deadline = Date().addingTimeInterval(2)
        while streamCount > 0, Date() < deadline {
            wakeStreams()
            usleep(5_000)
        }
        MHD_stop_daemon(daemon)
        context.release()
    }

}

struct HTTPServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
