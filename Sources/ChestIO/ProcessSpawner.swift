import Glibc

/// Starts programs with posix_spawn(3), for the daemon's helpers and hooks and for the tests' daemons alike.
///
/// Every child starts with default signal actions and an empty signal mask: a child inherits the mask of the
/// thread that spawns it, and both the daemon (for its own signal handling) and Swift's test runners block or
/// ignore signals, so a child started any other way could ignore SIGTERM for good.
package enum ProcessSpawner {
    /// What is done to the child's descriptors before it runs, in order.
    package enum FileAction: Hashable, Sendable {
        /// Opens `path` as descriptor `fd`.
        case open(Int32, path: String, flags: Int32, permissions: mode_t)
        /// Makes descriptor `target` a copy of `source` (dup2).
        case duplicate(Int32, as: Int32)
        /// Closes descriptor `fd`.
        case close(Int32)
        /// Closes every descriptor from `fd` up, so the child holds only what the earlier actions gave it, whatever
        /// other threads of the parent opened without close-on-exec.
        case closeFrom(Int32)
    }

    /// glibc's posix_spawn_file_actions_addclosefrom_np (2.34 and later), which the Glibc module does not import.
    private static let addCloseFrom:
        (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
            dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np").map {
                unsafeBitCast(
                    $0, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
            }
        }()

    /// Starts `executable` with `arguments` (after `argv0` as argv[0]) and exactly `environment`.
    /// - Parameter argv0: the name the program is called by (default: `executable`); the one program of chest is
    ///   chestd, chest-walk or chest-weather by this name (`HelperProcess`).
    /// - Parameter newProcessGroup: puts the child in a process group of its own, so that a signal to the group
    ///   reaches whatever it starts in turn.
    /// - Returns: the child's pid.
    /// - Throws: the error posix_spawn returned.
    package static func spawn(
        _ executable: String, argv0: String? = nil, arguments: [String], environment: [String: String],
        fileActions: [FileAction] = [], newProcessGroup: Bool = false
    ) throws(Errno) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for action in fileActions {
            switch action {
            case let .open(fd, path, flags, permissions):
                posix_spawn_file_actions_addopen(&actions, fd, path, flags, permissions)
            case let .duplicate(source, target):
                posix_spawn_file_actions_adddup2(&actions, source, target)
            case let .close(fd):
                posix_spawn_file_actions_addclose(&actions, fd)
            case let .closeFrom(fd):
                if let addCloseFrom = Self.addCloseFrom {
                    _ = addCloseFrom(&actions, fd)
                } else {
                    for open in inheritableDescriptors() where open >= fd {
                        posix_spawn_file_actions_addclose(&actions, open)
                    }
                }
            }
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if newProcessGroup {
            flags |= POSIX_SPAWN_SETPGROUP
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)

        // A NUL would end the C string early and pass on a different value than the caller gave.
        let argv = ([argv0 ?? executable] + arguments).map { strdup($0) }
        let envp = environment.map { strdup("\($0.key)=\($0.value.filter { $0 != "\0" })") }
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        var status: Int32 = 0
        // ETXTBSY: the program was just written, and a child another thread was starting at that moment still holds
        // a copy of the writer's descriptor until its own exec closes it; it goes within milliseconds.
        for attempt in 0...Self.busyRetries {
            if attempt > 0 { usleep(10_000) }
            status = (argv + [nil]).withUnsafeBufferPointer { argvBuffer in
                (envp + [nil]).withUnsafeBufferPointer { envpBuffer in
                    posix_spawn(
                        &pid, executable, &actions, &attributes, argvBuffer.baseAddress!, envpBuffer.baseAddress!)
                }
            }
            if status != ETXTBSY { break }
        }
        guard status == 0 else { throw Errno(status) }
        return pid
    }

    /// How often a spawn refused with ETXTBSY is tried again, 10 ms apart.
    static let busyRetries = 50

    /// Waits for `pid` to exit and returns its exit status (see `exitStatus(fromWaitStatus:)`); nil when it
    /// cannot be waited for (not our child, or reaped already).
    package static func wait(for pid: pid_t) -> Int32? {
        var status: Int32 = 0
        guard (try? retryingOnInterrupt("waitpid") { waitpid(pid, &status, 0) }) != nil else { return nil }
        return exitStatus(fromWaitStatus: status)
    }

    /// An exit status as a shell reports it, from a raw `waitpid` status: the exit code, or 128 + N after
    /// signal N.
    package static func exitStatus(fromWaitStatus status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Our open descriptors that are not close-on-exec, which a child would otherwise inherit.
    static func inheritableDescriptors() -> [Int32] {
        guard let directory = opendir("/proc/self/fd") else { return [] }
        defer { closedir(directory) }
        var descriptors: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let fd = Int32(name), fd != dirfd(directory) else { continue }
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 && flags & FD_CLOEXEC == 0 { descriptors.append(fd) }
        }
        return descriptors
    }
}
