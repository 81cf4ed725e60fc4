/// Which connections the web board keeps under many slow clients (docs/HUNTS.md "Slow and idle connections"): at
/// most `perClient` open from one client (an IPv4 address or an IPv6 /64, `ClientAddress`), and at most `total`
/// kept in all. A connection that arrives when `total` are kept closes the one that has waited longest for its
/// request's headers, so requests that never end cannot lock an honest screen out (issue 45: 10,400 of them, under
/// the per-address cap, made every honest request wait for a slot until it timed out); they only shorten how long
/// each of them is held. A connection whose request is being answered (an event stream, a response still being
/// read) is never closed for a newcomer: when every kept connection is, the newcomer is closed instead.
///
/// Pure bookkeeping: `HTTPServer` calls it under one lock, from libmicrohttpd's callbacks, and closes what it says.
struct ConnectionBudget {
    typealias ID = UInt64

    /// Connections kept at once.
    let total: Int
    /// Connections open at once from one client, those being closed included.
    let perClient: Int

    private struct Connection {
        var client: ClientAddress
        /// When it began waiting for a request's headers (a number from `clock`); nil while a request is answered.
        var waitingSince: UInt64?
        /// Chosen to be closed; still open until libmicrohttpd closes it.
        var closing = false
    }

    private var connections: [ID: Connection] = [:]
    private var perClientCount: [ClientAddress: Int] = [:]
    /// The connections in the order they began waiting, oldest first from `head`; an entry is stale once its
    /// connection is closed, closing, answered, or waiting again since a later time.
    private var waiting: [(id: ID, since: UInt64)] = []
    private var head = 0
    private var clock: UInt64 = 0

    /// Connections open and not being closed.
    private(set) var kept = 0
    /// Connections closed to make room or over the per-client cap, since the start.
    private(set) var closedCount = 0

    init(total: Int, perClient: Int) {
        self.total = max(1, total)
        self.perClient = max(1, perClient)
    }

    /// Connections open, those being closed included.
    var open: Int { connections.count }

    /// Whether a connection from `client` is under the per-client cap, asked before libmicrohttpd takes it in.
    func admits(_ client: ClientAddress) -> Bool {
        perClientCount[client, default: 0] < perClient
    }

    /// A new connection, waiting for its request; returns the connections to close now (`id` itself when its
    /// client is over its cap, or when every other connection kept is being answered).
    mutating func opened(_ id: ID, from client: ClientAddress) -> [ID] {
        clock += 1
        connections[id] = Connection(client: client, waitingSince: clock)
        waiting.append((id, clock))
        kept += 1
        perClientCount[client, default: 0] += 1
        if perClientCount[client, default: 0] > perClient {
            markClosing(id)
            return [id]
        }
        var closing: [ID] = []
        while kept > total, let oldest = popOldestWaiting() {
            markClosing(oldest)
            closing.append(oldest)
        }
        return closing
    }

    /// A request's headers are complete and it is being answered.
    mutating func requestStarted(_ id: ID) {
        guard connections[id]?.closing == false else { return }
        connections[id]?.waitingSince = nil
    }

    /// A request was answered; the connection (kept alive) waits for the next one, as the newest.
    mutating func requestEnded(_ id: ID) {
        guard let connection = connections[id], !connection.closing, connection.waitingSince == nil else { return }
        clock += 1
        connections[id]?.waitingSince = clock
        waiting.append((id, clock))
    }

    /// The connection is gone.
    mutating func closed(_ id: ID) {
        guard let connection = connections.removeValue(forKey: id) else { return }
        if !connection.closing { kept -= 1 }
        let count = perClientCount[connection.client, default: 1] - 1
        perClientCount[connection.client] = count > 0 ? count : nil
        // Entries of connections closed without being chosen stay in `waiting`; drop them before they outnumber
        // the live ones.
        if waiting.count - head > 2 * connections.count + 1_024 {
            waiting = waiting[head...].filter { isWaiting($0.id, since: $0.since) }
            head = 0
        }
    }

    private mutating func markClosing(_ id: ID) {
        connections[id]?.closing = true
        kept -= 1
        closedCount += 1
    }

    private func isWaiting(_ id: ID, since: UInt64) -> Bool {
        guard let connection = connections[id] else { return false }
        return !connection.closing && connection.waitingSince == since
    }

    private mutating func popOldestWaiting() -> ID? {
        defer {
            if head > 1_024, head * 2 > waiting.count {
                waiting.removeFirst(head)
                head = 0
            }
        }
        while head < waiting.count {
            let entry = waiting[head]
            head += 1
            if isWaiting(entry.id, since: entry.since) { return entry.id }
        }
        return nil
    }
}
