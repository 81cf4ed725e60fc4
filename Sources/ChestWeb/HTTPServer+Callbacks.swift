import CMicroHTTPD
import ChestIO
import FoundationEssentials
import Glibc

/// libmicrohttpd's callbacks: the per-client cap, each request answered, each stream fed, each request ended.
extension HTTPServer {
    /// The per-client cap, before libmicrohttpd takes a connection in.
    static let admit: MHD_AcceptPolicyCallback = { contextPointer, address, _ in
        guard let contextPointer else { return .NO }
        let context = Unmanaged<Context>.fromOpaque(contextPointer).takeUnretainedValue()
        let client = ClientAddress(address)
        return context.connections.withLock { $0.budget.admits(client) } ? .YES : .NO
    }

    /// A connection taken in (the budget may close it, or older ones, at once) or gone. Its number in the budget
    /// is its socket context.
    static let notify: MHD_NotifyConnectionCallback = { contextPointer, connection, socketContext, code in
        guard let contextPointer, let connection, let socketContext else { return }
        let context = Unmanaged<Context>.fromOpaque(contextPointer).takeUnretainedValue()
        switch code {
        case .CONNECTION_NOTIFY_STARTED:
            let socket = chest_mhd_connection_fd(connection)
            let client = ClientAddress(chest_mhd_client_address(connection))
            context.connections.withLock { connections in
                let id = connections.next
                connections.next += 1
                socketContext.pointee = UnsafeMutableRawPointer(bitPattern: UInt(id))
                connections.sockets[id] = socket
                // Two statements: as one call, `shed`'s copy of `connections` would be taken before `opened` changes
                // the budget, and that change would copy its tables, every connection.
                let closing = connections.budget.opened(id, from: client)
                connections.shed(closing)
            }
        case .CONNECTION_NOTIFY_CLOSED:
            guard let id = socketContext.pointee.map({ ConnectionBudget.ID(UInt(bitPattern: $0)) }) else { return }
            context.connections.withLock { connections in
                connections.budget.closed(id)
                connections.sockets[id] = nil
            }
        default:
            break
        }
    }

    /// A request ended: its connection, kept alive, waits for the next one.
    static let completed: MHD_RequestCompletedCallback = { contextPointer, connection, _, _ in
        guard let contextPointer, let connection, let id = HTTPServer.budgetID(connection) else { return }
        let context = Unmanaged<Context>.fromOpaque(contextPointer).takeUnretainedValue()
        context.connections.withLock { $0.budget.requestEnded(id) }
    }

    static func budgetID(_ connection: OpaquePointer) -> ConnectionBudget.ID? {
        chest_mhd_socket_context(connection).map { ConnectionBudget.ID(UInt(bitPattern: $0)) }
    }

    static let access: MHD_AccessHandlerCallback = { contextPointer, connection, url, method, _, _, _, _ in
        guard let contextPointer, let connection, let url, let method else { return .NO }
        let context = Unmanaged<Context>.fromOpaque(contextPointer).takeUnretainedValue()
        let connectionID = budgetID(connection)
        if let connectionID { context.connections.withLock { $0.budget.requestStarted(connectionID) } }
        func value(_ kind: MHD_ValueKind, _ name: String) -> String? {
            if let value = MHD_lookup_connection_value(connection, kind, name) { return String(cString: value) }
            // An argument without a value (`?photos`) is there, empty.
            var bytes: UnsafePointer<CChar>?
            var count = 0
            return MHD_lookup_connection_value_n(connection, kind, name, name.utf8.count, &bytes, &count) == .YES
                ? "" : nil
        }
        let request = HTTPRequest(
            method: String(cString: method), path: String(cString: url),
            argument: { value(.GET_ARGUMENT_KIND, $0) }, cookie: { value(.COOKIE_KIND, $0) })
        var reply = context.handle(request)
        var stream: Stream?
        if case let .stream(source) = reply.body {
            let client = ClientAddress(chest_mhd_client_address(connection))
            let (decision, kept, closing) = context.streams.withLock { streams in
                let opened = Stream(
                    streams.next, source, connection: connection, connectionID: connectionID, context: context)
                streams.next += 1
                let decision = streams.budget.open(opened.id, from: client)
                guard case let .admitted(closing) = decision else { return (decision, nil as Stream?, nil as Stream?) }
                // Listed at once, under the lock the budget chose under, so that a later newcomer can close it.
                streams.open[opened.id] = opened
                return (decision, opened, closing.flatMap { streams.open[$0] })
            }
            closing?.end()
            stream = kept
            if let refusal = HTTPServer.refusal(decision, limits: context.limits) { reply = refusal }
        }
        let response: OpaquePointer?
        switch (reply.body, stream) {
        case let (.stream, stream?):
            let retained = Unmanaged.passRetained(stream)
            response = MHD_create_response_from_callback(
                UInt64.max, 64 << 10, HTTPServer.read, retained.toOpaque(), HTTPServer.free)
            if response == nil {
                retained.release()
                context.streams.withLock { streams in
                    streams.open[stream.id] = nil
                    streams.budget.closed(stream.id)
                }
            }
        case let (.bytes(data), _):
            response = data.withUnsafeBytes { bytes in
                MHD_create_response_from_buffer(
                    bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                    .RESPMEM_MUST_COPY)
            }
        case (.stream, nil):
            response = nil
        }
        guard let response else { return .NO }
        for (name, value) in reply.headers { MHD_add_response_header(response, name, value) }
        let queued = MHD_queue_response(connection, UInt32(reply.status), response)
        MHD_destroy_response(response)
        return queued
    }

    /// The answer to a stream the budget refused; nil when it was kept.
    static func refusal(_ decision: StreamBudget.Decision, limits: Limits) -> HTTPResponse? {
        let text: String
        let status: UInt32
        switch decision {
        case .admitted: return nil
        case .overClientCap:
            status = 429
            text =
                "This address follows the board on \(limits.streamsPerAddress) event streams already, the most it may: "
                + "close one; the page reads /board.json every few seconds meanwhile.\n"
        case .full:
            status = 503
            text =
                "The board follows \(limits.streams) event streams, the most it can: "
                + "the page reads /board.json every few seconds meanwhile.\n"
        }
        return HTTPResponse(
            status: status, headers: [("Content-Type", "text/plain; charset=utf-8"), ("Retry-After", "60")],
            body: .bytes(Data(text.utf8)))
    }

    /// Fills libmicrohttpd's buffer from the stream; parks the connection (and returns 0) when the source has
    /// nothing, unless a wake-up came while it was asked.
    static let read: MHD_ContentReaderCallback = { pointer, _, buffer, maximum in
        guard let pointer, let buffer else { return -2 }
        let stream = Unmanaged<Stream>.fromOpaque(pointer).takeUnretainedValue()
        while stream.bytes.isEmpty {
            let ended = stream.park.withLock { park -> Bool in
                park.woken = false
                return park.ended
            }
            guard !ended else { return -1 }  // MHD_CONTENT_READER_END_OF_STREAM
            guard let more = stream.source.next() else { return -1 }  // MHD_CONTENT_READER_END_OF_STREAM
            if !more.isEmpty {
                stream.bytes = more
                break
            }
            let parked = stream.park.withLock { park -> Bool in
                guard !park.woken else { return false }
                park.suspended = true
                MHD_suspend_connection(stream.connection)
                return true
            }
            if parked { return 0 }
        }
        let count = min(maximum, stream.bytes.count)
        stream.bytes.withUnsafeBytes { buffer.update(from: $0.bindMemory(to: CChar.self).baseAddress!, count: count) }
        stream.bytes.removeFirst(count)
        return count
    }

    static let free: MHD_ContentReaderFreeCallback = { pointer in
        guard let pointer else { return }
        let stream = Unmanaged<Stream>.fromOpaque(pointer).takeRetainedValue()
        stream.context?.streams.withLock { streams in
            streams.open[stream.id] = nil
            streams.budget.closed(stream.id)
        }
        stream.source.closed()
    }
}
