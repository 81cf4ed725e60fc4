import ChestCore
@preconcurrency import Dispatch
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// Takes the control socket's connections as they arrive (docs/DESIGN.md "Reliability and security"): checks each
/// peer's uid, admits at most `ControlServer.maximumConnections`, and keeps a descriptor in reserve, so that when
/// the process runs out of descriptors the waiting client is told why instead of the listener staying readable
/// and the queue spinning on EMFILE.
final class ControlAcceptor: Sendable {
    let source: any DispatchSourceRead
    private let listener: FileDescriptor
    private let queue = DispatchQueue(label: "chest.control")
    private let log: Log
    private let onRequest: @Sendable (ControlConnection, Data) -> Void
    private let connections = ConnectionTable()
    private let reserve = Mutex(ControlAcceptor.openReserve())
    private let exhausted = Atomic(false)

    init(listener: FileDescriptor, log: Log, onRequest: @escaping @Sendable (ControlConnection, Data) -> Void) {
        self.listener = listener
        self.log = log
        self.onRequest = onRequest
        source = DispatchSource.makeReadSource(fileDescriptor: listener.rawValue, queue: queue)
    }

    /// Accepts on the control queue from now on; cancelling `source` closes the listener.
    func start() {
        source.setEventHandler { [self] in acceptWaiting() }
        source.setCancelHandler { [listener] in listener.close() }
        source.resume()
    }

    private func acceptWaiting() {
        while true {
            let accepted: FileDescriptor
            do {
                guard let next = try listener.accept() else { return }
                accepted = next
            } catch {
                guard error.errno == Errno(EMFILE) || error.errno == Errno(ENFILE) else { return }
                outOfDescriptors()
                return
            }
            exhausted.store(false, ordering: .relaxed)
            guard UnixSocket.peerUID(accepted) == getuid() else {
                log.warning("control socket: refused a client of another user")
                Self.refuse(accepted, "this chestd admits its owner only (uid \(getuid()))")
                continue
            }
            let connection = ControlConnection(fd: accepted, onRequest: onRequest)
            guard connections.admit(connection) else {
                Self.refuse(
                    accepted, "chestd has \(ControlServer.maximumConnections) connections open; try again shortly")
                continue
            }
            connection.start()
        }
    }

    /// The reserve is freed to accept the waiting client and tell it why; the oldest silent client is dropped,
    /// since the daemon's own work (reading a message file) needs descriptors more than a silent client.
    private func outOfDescriptors() {
        let freed = reserve.withLock { reserve -> Bool in
            guard let fd = reserve else { return false }
            fd.close()
            reserve = nil
            return true
        }
        if freed, let spare = try? listener.accept() {
            Self.refuse(spare, "chestd is out of file descriptors; try again shortly")
        }
        connections.dropOldestSilent("dropped: chestd is out of file descriptors")
        reserve.withLock { $0 = $0 ?? Self.openReserve() }
        if !exhausted.exchange(true, ordering: .relaxed) {
            log.warning(
                "control socket: out of file descriptors; dropping silent clients, refusing new ones for a moment")
        }
        // Back off rather than spin while the listener stays readable. Then look again ourselves: the source may
        // not fire once resumed, since nothing new arrives while the backlog is full, and a client blocked in
        // connect(2) would wait for ever.
        source.suspend()
        queue.asyncAfter(deadline: .now() + .milliseconds(200)) { [self] in
            source.resume()
            acceptWaiting()
        }
    }

    private static func openReserve() -> FileDescriptor? {
        try? FileDescriptor.open("/dev/null", O_RDONLY)
    }

    /// Writes one JSON error line, without waiting, and closes.
    static func refuse(_ fd: FileDescriptor, _ why: String) {
        fd.setNonBlocking(true)
        _ = ControlConnection.errorLine(why).withUnsafeBytes { try? fd.send($0) }
        fd.close()
    }
}
