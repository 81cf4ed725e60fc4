import CMosquitto
import ChestIO
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// The libmosquitto handle behind an `MQTTClient`, the thread that drives it, and the callbacks.
///
/// Our own loop rather than `mosquitto_loop_start`: libmosquitto's thread quits for good after a TLS or protocol
/// error, and its backoff sleep cannot be cut short by a stop. And our own poll(2) rather than `mosquitto_loop`,
/// which reads before it writes: a stop must send its DISCONNECT without reading anything more (docs/HUNTS.md
/// "libmosquitto notes").
final class MQTTConnection: @unchecked Sendable {
    struct State {
        var subscriptions: [(pattern: String, qos: Int32)] = []
        var connected = false
        var started = false
        var stopping = false
        /// The reason last reported since the last accepted connection, so that a broker that stays away is
        /// reported once, not at every retry.
        var reported: String?
        /// The broker refused the current attempt (already reported as such).
        var refused = false
        /// libmosquitto reported the end of the current attempt through the disconnect callback.
        var ended = false
        /// Failed attempts since the last accepted connection: the backoff.
        var failures = 0
        var loopThread: pthread_t?
        /// A will to use from the next connection on, set by `setWill`.
        var nextWill: MQTTMessage?
    }

    /// libmosquitto opened and its own global state initialised, once per process; or why it cannot be opened.
    private static let library = Result { () throws(LibraryUnavailable) in
        try OnDemandLibrary.mosquitto.open()
        _ = mosquitto_lib_init()
    }

    let mosq: OpaquePointer
    private let options: MQTTOptions
    private let onEvent: @Sendable (MQTTEvent) -> Void
    let state = Mutex(State())
    /// Held around every call that uses `mosq` from outside the loop thread, and set once `mosq` is destroyed.
    /// Also the barrier that keeps a `delivered` from overtaking the `publish` call that returns its ID.
    let handle = Mutex(false)
    /// Rung by `publish`, `subscribe` and `stop`, so that the loop thread writes what they queued, or stops.
    private let wakeups: Mailbox<Void>
    private let finished = DispatchSemaphore(value: 0)

    init(_ options: MQTTOptions, onEvent: @escaping @Sendable (MQTTEvent) -> Void) throws(MQTTError) {
        if case .failure(let unavailable) = MQTTConnection.library {
            throw MQTTError(code: Int32(MOSQ_ERR_NOT_SUPPORTED.rawValue), description: unavailable.description)
        }
        do {
            wakeups = try Mailbox()
        } catch {
            throw MQTTError(code: Int32(MOSQ_ERR_ERRNO.rawValue), description: "\(error)")
        }
        guard let mosq = mosquitto_new(options.clientID, options.cleanSession, nil) else {
            throw MQTTError(
                code: Int32(MOSQ_ERR_ERRNO.rawValue), description: "mosquitto_new: \(String(cString: strerror(errno)))")
        }
        do throws(MQTTError) {
            try MQTTConnection.configure(mosq, options)
        } catch {
            mosquitto_destroy(mosq)
            throw error
        }
        self.mosq = mosq
        self.options = options
        self.onEvent = onEvent
        mosquitto_user_data_set(mosq, Unmanaged.passUnretained(self).toOpaque())
        installCallbacks()
    }

    private static func configure(_ mosq: OpaquePointer, _ options: MQTTOptions) throws(MQTTError) {
        try check(mosquitto_threaded_set(mosq, true))
        try check(mosquitto_int_option(mosq, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311))
        if options.username != nil || options.password != nil {
            try check(mosquitto_username_pw_set(mosq, options.username, options.password))
        }
        if let will = options.will {
            let rc = will.payload.withUnsafeBytes {
                mosquitto_will_set(mosq, will.topic, Int32($0.count), $0.baseAddress, will.qos, will.retain)
            }
            try check(rc)
        }
        if options.tls {
            // libmosquitto checks here that the CA file can be read, so a wrong path fails now, not at each retry.
            let rc = mosquitto_tls_set(
                mosq, options.caFile, options.caFile == nil ? "/etc/ssl/certs" : nil, nil, nil, nil)
            try check(rc)
        }
    }

    private static func check(_ rc: Int32) throws(MQTTError) {
        if rc != Int32(MOSQ_ERR_SUCCESS.rawValue) { throw MQTTError(code: rc) }
    }

    // MARK: Calls from the client

    func start() {
        let first = state.withLock { state in
            defer { state.started = true }
            return !state.started && !state.stopping
        }
        guard first else { return }
        OSThread.start(name: "mqtt \(options.clientID)") { [self] in run() }
    }

    func subscribe(_ pattern: String, qos: Int32) {
        let connected = state.withLock { state in
            state.subscriptions.removeAll { $0.pattern == pattern }
            state.subscriptions.append((pattern, qos))
            return state.connected
        }
        guard connected else { return }
        handle.withLock { destroyed in
            if !destroyed { _ = mosquitto_subscribe(mosq, nil, pattern, qos) }
        }
        wakeups.yield(())
    }

    func publish(_ message: MQTTMessage) throws(MQTTError) -> Int32 {
        guard isConnected else { throw MQTTError(code: Int32(MOSQ_ERR_NO_CONN.rawValue)) }
        var mid: Int32 = 0
        let rc = handle.withLock { destroyed -> Int32 in
            guard !destroyed else { return Int32(MOSQ_ERR_NO_CONN.rawValue) }
            return message.payload.withUnsafeBytes {
                mosquitto_publish(
                    mosq, &mid, message.topic, Int32($0.count), $0.baseAddress, message.qos, message.retain)
            }
        }
        try MQTTConnection.check(rc)
        wakeups.yield(())
        return mid
    }

    var isConnected: Bool { state.withLock { $0.connected } }

    func setWill(_ will: MQTTMessage) { state.withLock { $0.nextWill = will } }

    func stop() {
        let (started, onLoopThread) = state.withLock { state in
            let onLoop = state.loopThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
            let started = state.started && !state.stopping
            state.stopping = true
            state.started = true
            return (started, onLoop)
        }
        if !started {
            // Never started (the thread owns `mosq` otherwise), or already stopping.
            handle.withLock { destroyed in
                if !destroyed, state.withLock({ $0.loopThread == nil }) {
                    destroyed = true
                    mosquitto_destroy(mosq)
                }
            }
            return
        }
        // The loop thread sends the DISCONNECT itself (`finish`): called from here, mosquitto_disconnect would
        // change the state under a read in progress there.
        wakeups.yield(())
        // From the event handler the loop thread cannot wait for itself; it finishes after the handler returns.
        if !onLoopThread { _ = finished.wait(timeout: .now() + 5) }
    }

    func dropConnection() {
        handle.withLock { destroyed in
            if !destroyed {
                let socket = mosquitto_socket(mosq)
                if socket >= 0 { _ = shutdown(socket, Int32(SHUT_RDWR)) }
            }
        }
    }

    // MARK: The loop thread

    private var isStopping: Bool { state.withLock { $0.stopping } }

    private func run() {
        state.withLock { $0.loopThread = pthread_self() }
        var first = true
        while !isStopping {
            // The will is part of CONNECT: changed here, on this thread, between connections only.
            if let will = state.withLock({ state in
                defer { state.nextWill = nil }
                state.refused = false
                state.ended = false
                return state.nextWill
            }) {
                _ = will.payload.withUnsafeBytes {
                    mosquitto_will_set(mosq, will.topic, Int32($0.count), $0.baseAddress, will.qos, will.retain)
                }
            }
            let rc =
                first
                ? mosquitto_connect_async(mosq, options.host, Int32(options.port), Int32(options.keepAlive))
                : mosquitto_reconnect_async(mosq)
            first = false
            if rc == Int32(MOSQ_ERR_SUCCESS.rawValue) {
                // Until the connection ends, which the disconnect callback reports, except for a failed TLS
                // handshake (docs/HUNTS.md "libmosquitto notes"). mosquitto_reconnect_async closes whatever
                // socket is left.
                var loop = Int32(MOSQ_ERR_SUCCESS.rawValue)
                while !isStopping, loop == Int32(MOSQ_ERR_SUCCESS.rawValue) { loop = turn() }
                if !isStopping, !state.withLock({ $0.ended }) {
                    report(failure: MQTTError.sentence(loop))
                }
            } else {
                report(failure: MQTTError.sentence(rc))
            }
            if isStopping { break }
            let failures = state.withLock { state in
                defer { state.failures += 1 }
                return state.failures
            }
            // 1, 4, 9, 16, 25, then 30 s: libmosquitto's own exponential backoff (mosquitto_reconnect_delay_set).
            let deadline = MonotonicClock.now() + Double(min(30, (failures + 1) * (failures + 1)))
            while !isStopping, case let left = deadline - MonotonicClock.now(), left > 0 {
                _ = wakeups.wait(timeout: left)
            }
        }
        finish()
    }

    /// One turn of the connection, as `mosquitto_loop` does it: waits up to a second for the broker's socket or a
    /// ring, then reads, writes what is queued and keeps the connection alive; nothing once a stop is asked for.
    /// libmosquitto's return code: anything but success ends the connection.
    private func turn() -> Int32 {
        let socket = mosquitto_socket(mosq)
        guard socket >= 0 else { return Int32(MOSQ_ERR_NO_CONN.rawValue) }
        let woke = wakeups.wait(
            orReadable: FileDescriptor(rawValue: socket), orWritable: mosquitto_want_write(mosq), timeout: 1)
        if isStopping { return Int32(MOSQ_ERR_SUCCESS.rawValue) }
        // Both only do what the socket allows: a read or a write that would block returns success.
        if woke.readable {
            let rc = mosquitto_loop_read(mosq, 1)
            if rc != Int32(MOSQ_ERR_SUCCESS.rawValue) || mosquitto_socket(mosq) < 0 { return rc }
        }
        if woke.readable || !woke.events.isEmpty {
            let rc = mosquitto_loop_write(mosq, 1)
            if rc != Int32(MOSQ_ERR_SUCCESS.rawValue) || mosquitto_socket(mosq) < 0 { return rc }
        }
        return mosquitto_loop_misc(mosq)
    }

    /// Sends a DISCONNECT, writing only: libmosquitto takes any packet read after `mosquitto_disconnect` (a message,
    /// a PUBACK on its way) for a protocol error and closes the socket without it, and the broker would publish the
    /// will. Then closes the connection as TCP means it to be closed (`closeGracefully`), and frees `mosq`.
    private func finish() {
        let socket = mosquitto_socket(mosq)
        if socket >= 0 {
            // libmosquitto closes its descriptor once the DISCONNECT is written; this one keeps the connection.
            let held = fcntl(socket, F_DUPFD_CLOEXEC, 0)
            if mosquitto_disconnect(mosq) == Int32(MOSQ_ERR_SUCCESS.rawValue) {
                let deadline = MonotonicClock.now() + 2
                while mosquitto_socket(mosq) >= 0, MonotonicClock.now() < deadline {
                    var entry = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&entry, 1, 100)
                    if mosquitto_loop_write(mosq, 1) != Int32(MOSQ_ERR_SUCCESS.rawValue) { break }
                }
            }
            if held >= 0 { GracefulClose.close(held, within: 2) }
        }
        handle.withLock { destroyed in
            destroyed = true
            mosquitto_destroy(mosq)
        }
        state.withLock { $0.connected = false }
        finished.signal()
    }

    func emit(_ event: MQTTEvent) {
        if !isStopping { onEvent(event) }
    }

    /// An attempt that failed before the broker answered: reported once per reason until a connection succeeds.
    func report(failure reason: String) {
        let new = state.withLock { state in
            defer { state.reported = reason }
            return state.reported != reason
        }
        if new { emit(.disconnected(reason)) }
    }
}
