/// Which event streams (`/events`) the web board keeps (docs/HUNTS.md "Slow and idle connections"): at most
/// `perClient` from one client (an IPv4 address or an IPv6 /64, `ClientAddress`), a screen needing one or two, and
/// at most `total` in all. A stream that arrives when `total` are kept closes the oldest stream of the client that
/// holds most, the newcomer counted with its own client's: so a few addresses holding many streams cannot shut an
/// honest screen out (issue 61: 1,000 held streams did, every honest `/events` answered 503), and a client that
/// opens streams again and again at the cap only closes its own. Among clients holding equally many, the one that
/// opened a stream last gives one up: a screen that has followed the board for hours keeps its stream, and when
/// every client holds one, a newcomer is refused (its page then polls `/board.json`).
///
/// Pure bookkeeping: `HTTPServer` calls it under one lock and ends the stream it chooses.
struct StreamBudget {
    typealias ID = UInt64

    /// What becomes of a new stream.
    enum Decision: Equatable {
        /// Refused: its client holds `perClient` already.
        case overClientCap
        /// Refused: `total` are kept and the newcomer's client would be the one to give one up, holding as many
        /// as any other and having opened last.
        case full
        /// Kept; `closing` is the stream it takes the place of, to be ended now.
        case admitted(closing: ID?)
    }

    /// Streams kept at once.
    let total: Int
    /// Streams kept at once for one client.
    let perClient: Int

    private struct Client {
        /// Its streams kept, oldest first.
        var streams: [ID] = []
        /// When it last opened a stream that was kept (a number from `clock`).
        var lastOpened: UInt64 = 0
    }

    private var clients: [ClientAddress: Client] = [:]
    private var clientOf: [ID: ClientAddress] = [:]
    private var clock: UInt64 = 0

    /// Streams kept (those chosen to be closed are no longer counted).
    private(set) var kept = 0
    /// Streams refused, and streams closed for a newcomer, since the start.
    private(set) var refusedCount = 0
    private(set) var closedCount = 0

    init(total: Int, perClient: Int) {
        self.total = max(1, total)
        self.perClient = max(1, perClient)
    }

    /// A new stream from `client`: kept or refused, and the stream it closes.
    mutating func open(_ id: ID, from client: ClientAddress) -> Decision {
        let held = clients[client]?.streams.count ?? 0
        guard held < perClient else {
            refusedCount += 1
            return .overClientCap
        }
        var closing: ID?
        if kept >= total {
            // The newcomer's client counts it, and is the latest to open: another gives one up only by holding more.
            var most = held + 1
            var chosen: (client: ClientAddress, lastOpened: UInt64)?
            for (other, entry) in clients where other != client {
                let count = entry.streams.count
                if count > most || (count == most && chosen.map { entry.lastOpened > $0.lastOpened } == true) {
                    most = count
                    chosen = (other, entry.lastOpened)
                }
            }
            let giver = chosen?.client ?? client
            guard let oldest = clients[giver]?.streams.first else {
                refusedCount += 1
                return .full
            }
            forget(oldest)
            closedCount += 1
            closing = oldest
        }
        clock += 1
        clients[client, default: Client()].streams.append(id)
        clients[client]?.lastOpened = clock
        clientOf[id] = client
        kept += 1
        return .admitted(closing: closing)
    }

    /// The stream ended (its connection is gone, or it was closed for a newcomer).
    mutating func closed(_ id: ID) {
        forget(id)
    }

    /// How many streams `client` holds.
    func count(of client: ClientAddress) -> Int { clients[client]?.streams.count ?? 0 }

    private mutating func forget(_ id: ID) {
        guard let client = clientOf.removeValue(forKey: id) else { return }
        kept -= 1
        clients[client]?.streams.removeAll { $0 == id }
        if clients[client]?.streams.isEmpty == true { clients[client] = nil }
    }
}
