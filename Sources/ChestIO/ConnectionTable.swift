import ChestCore
@preconcurrency import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// The control socket's open connections, oldest first, for `ControlServer.maximumConnections`.
final class ConnectionTable: Sendable {
    private let connections = Mutex<[ControlConnection]>([])

    /// Drops the oldest connection that has not sent its request yet, if any.
    func dropOldestSilent(_ why: String) {
        let silent = connections.withLock { connections -> ControlConnection? in
            connections.firstIndex(where: \.isSilent).map { connections.remove(at: $0) }
        }
        silent?.drop(why)
    }

    /// Makes room for `connection` and records it; false when every open connection is busy.
    func admit(_ connection: ControlConnection) -> Bool {
        let evicted = connections.withLock { connections -> ControlConnection?? in
            connections.removeAll { $0.isClosed }
            var evicted: ControlConnection?
            if connections.count >= ControlServer.maximumConnections {
                guard let index = connections.firstIndex(where: \.isSilent) else { return .none }
                evicted = connections.remove(at: index)
            }
            connections.append(connection)
            return .some(evicted)
        }
        guard let evicted else { return false }
        evicted?.drop("dropped: no request while \(ControlServer.maximumConnections) connections were open")
        return true
    }
}

extension ControlConnection {
    var isClosed: Bool { state.withLock { $0.closed } }

    /// Connected but has sent no request yet.
    var isSilent: Bool { state.withLock { !$0.closed && !$0.answered && $0.buffer.isEmpty } }

    /// Answers with an error and closes.
    func drop(_ why: String) { queue.async { [self] in fail(why) } }
}
