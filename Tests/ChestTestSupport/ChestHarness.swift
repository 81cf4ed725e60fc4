import ChestCore
import ChestIO
import ChestSeal
import ChestTestSupport
import Foundation
import Glibc

/// A private world for one end-to-end test: a temporary chest, socket and config directories, the built
/// `chestd` running in it, and `chest` run as a user would.
package final class ChestHarness: @unchecked Sendable {
    package let root: String
    /// The chestd this world runs, signalled and reaped only through it (`TestProcess`).
    package var daemonProcess: TestProcess?
    /// chestd's pid while the harness has it.
    package var daemon: pid_t? { daemonProcess?.pid }
    /// How chestd ended, once the harness reaped it without stopping it (`daemonIsRunning`).
    package private(set) var daemonEnded: String?
    package var gpsd = "127.0.0.1:9"  // nothing listens there unless a test says otherwise
    package var extraEnvironment: [String: String] = [:]

    /// Where `swift build` put chest, with chestd, chest-walk and chest-weather beside it as links to it
    /// (`linkProgramNames`), made on first use.
    package static let products: String = {
        let candidates = [
            Bundle.main.bundleURL.path, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path,
        ]
        let directory =
            candidates.first { FileManager.default.isExecutableFile(atPath: $0 + "/chest") } ?? candidates[0]
        linkProgramNames(in: directory)
        return directory
    }()

    /// The names the one program answers to besides `chest` (Sources/chest/main.swift).
    package static let programNames = ["chestd", "chest-walk", "chest-weather"]

    /// Makes each of `programNames` in `directory` a link to `chest`, as `make install` and the package do: SwiftPM
    /// makes no links. A name that is anything else (the separate program an older build left there) is replaced.
    /// Each link is made at a name of its own and renamed into place, so test processes that do this at once each
    /// find a link there, never a missing or half-made one.
    package static func linkProgramNames(in directory: String) {
        for name in programNames {
            let path = directory + "/" + name
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == "chest" { continue }
            let temporary = directory + "/.\(name).\(getpid()).\(UInt32.random(in: 0 ... .max))"
            guard symlink("chest", temporary) == 0 else { continue }
            if rename(temporary, path) != 0 { unlink(temporary) }
        }
    }

    package init() {
        root = try! Directory.makeTemporary("chest-test", in: "/tmp")
        try? FileManager.default.createDirectory(atPath: chest, withIntermediateDirectories: true)
    }

    deinit {
        stopDaemon()
        try? FileManager.default.removeItem(atPath: root)
    }

    package var chest: String { root + "/chest" }
    package var socket: String { root + "/run/chestd.sock" }
    package var log: String { root + "/chestd.log" }

    /// The environment of a user named `user` (each user has their own config directory, so their own identity).
    package func environment(user: String = "reader") -> [String: String] {
        var environment = [
            "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": root, "TZ": "UTC",
            "XDG_CONFIG_HOME": root + "/config-" + user, "CHEST_DIR": chest,
            "CHEST_SOCKET": socket, "CHEST_GPSD": gpsd,
        ]
        environment.merge(extraEnvironment) { $1 }
        return environment
    }

    /// Starts chestd as `reader` and waits until its socket answers.
    package func startDaemon(_ arguments: [String] = [], waitForSocket: Bool = true) throws {
        daemonProcess = try TestProcess(
            Self.products + "/chestd", arguments, wholeEnvironment: environment(), stdout: log, stderr: log)
        guard waitForSocket else { return }
        try waitUntil("chestd's socket answers", timeout: 15) {
            guard let fd = try? UnixSocket.connect(to: socket) else { return false }
            fd.close()
            return true
        }
    }

    /// Stops chestd with `signal` (SIGTERM by default) and returns its exit status.
    @discardableResult
    package func stopDaemon(_ signal: Int32 = SIGTERM) -> Int32? {
        guard let process = daemonProcess else { return nil }
        process.signal(signal)
        daemonProcess = nil
        return process.wait()
    }

    /// Sends chestd `signal` (SIGHUP) and leaves it running.
    package func signalDaemon(_ signal: Int32) {
        daemonProcess?.signal(signal)
    }

    /// Whether chestd is still running. One that ended is reaped here and forgotten (`daemonEnded` says how), so
    /// that nothing signals its pid later, when it may be another process's.
    package var daemonIsRunning: Bool {
        guard let process = daemonProcess else { return false }
        guard let status = process.exitStatus else { return true }
        let code = ProcessSpawner.exitStatus(fromWaitStatus: status)
        daemonEnded =
            "chestd (pid \(process.pid)) "
            + (code > 128 ? "was killed by signal \(code - 128)" : "exited with status \(code)")
        daemonProcess = nil
        return false
    }

    /// For a failure that finds chestd not answering: whether it is running or how it ended, and its log's end.
    package var daemonReport: String {
        let state =
            daemonIsRunning ? "chestd (pid \(daemon ?? 0)) is running" : (daemonEnded ?? "chestd was not started")
        return "\(state); chestd log:\n\(daemonLog.suffix(3000))"
    }

    /// Runs `chest ARGUMENTS` as `user`, in the harness's root directory.
    @discardableResult
    package func chest(_ arguments: [String], user: String = "reader") throws -> Subprocess.Outcome {
        try Subprocess.run(Self.products + "/chest", arguments, environment: environment(user: user), directory: root)
    }

    /// Each message's state by title, from `chest list --json`.
    package func states() throws -> [String: String] {
        Dictionary(
            uniqueKeysWithValues: try list().compactMap { item in
                (item["title"]?.string).map { ($0, item["state"]?.string ?? "?") }
            })
    }

    /// `chest status --json`, parsed.
    package func status() throws -> JSON {
        let outcome = try chest(["status", "--json"])
        guard outcome.status == 0, let object = try? JSON(outcome.stdout), object.object != nil else {
            throw ChestError("chest status failed: \(outcome.stderr); \(daemonReport)")
        }
        return object
    }

    /// The time of chestd's latest fix (`chest status --json`), nil before the first.
    package func fixTime() throws -> Date? {
        (try status()["fix"]?["time"]?.string).flatMap { ISO8601.parse($0) }
    }

    /// Waits until chestd has taken fixes `seconds` of receiver time past its latest one now: each fix is a
    /// chance for it to act, so a test that must show something does not happen waits for these.
    package func waitForFixes(seconds: Double, timeout: Double = 30) throws {
        let from = try fixTime() ?? .distantPast
        try waitUntil("fixes \(seconds) s past \(from)", timeout: timeout) {
            (try fixTime()).map { $0.timeIntervalSince(from) >= seconds } ?? false
        }
    }

    /// The messages `chest list --json` shows (both chests when `saved` is nil).
    package func list(saved: Bool = false) throws -> [JSON] {
        let outcome = try chest(["list", "--json"] + (saved ? ["--saved"] : []))
        guard outcome.status == 0, let array = (try? JSON(outcome.stdout))?.array,
            array.allSatisfy({ $0.object != nil })
        else {
            throw ChestError("chest list failed: \(outcome.stderr); \(daemonReport)")
        }
        return array
    }

    package var daemonLog: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// Polls `condition` until it holds (`ChestTestSupport.waitUntil`), or throws after `timeout` seconds with
    /// chestd's log.
    package func waitUntil(_ what: String, timeout: Double, _ condition: () throws -> Bool) throws {
        do {
            try ChestTestSupport.waitUntil(what, timeout: timeout, condition)
        } catch let timedOut as WaitTimedOut {
            throw ChestError("\(timedOut); \(layout); chestd log:\n\(daemonLog)")
        }
    }

    /// The inodes of the connections chestd has accepted on its socket and not yet closed (from /proc/net/unix,
    /// where an accepted socket is listed, connected, under its listener's path).
    package var connections: Set<Substring> {
        let table = Self.procFile("/proc/net/unix")
        return Set(
            table.split(separator: "\n").compactMap { line in
                let fields = line.split(separator: " ")
                return fields.count == 8 && fields[7] == socket && fields[5] == "03" ? fields[6] : nil
            })
    }

    /// The whole text of a file under /proc. Foundation reads a procfs file in one read(2), which returns one
    /// page (4 KiB, about 55 sockets of /proc/net/unix): a machine running several suites has hundreds.
    package static func procFile(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Starts `chest ARGUMENTS` in the background (`chest watch`) and returns once chestd holds a connection of
    /// it that stays open, so what happens next reaches it. `chest watch` first lists the chests, one short
    /// connection each, then keeps its subscription open: a connection still open after `held` seconds is that one.
    package func spawnClient(
        _ arguments: [String], environment: [String: String]? = nil, stdout: String,
        stderr: String, held: Double = 0.3
    ) throws -> TestProcess {
        let before = connections
        let client = try TestProcess(
            Self.products + "/chest", arguments, wholeEnvironment: environment ?? self.environment(),
            stdout: stdout, stderr: stderr)
        var firstSeen: [Substring: Date] = [:]
        try waitUntil("chest \(arguments.joined(separator: " ")) holds a connection to chestd", timeout: 10) {
            let now = Date()
            let open = connections.subtracting(before)
            firstSeen = firstSeen.filter { open.contains($0.key) }
            for connection in open where firstSeen[connection] == nil { firstSeen[connection] = now }
            return firstSeen.values.contains { now.timeIntervalSince($0) >= held }
        }
        return client
    }

    /// Names in a directory under the chest ("messages", "rejected", "incoming", "" for the inbox), without the
    /// daemon's own temporary files.
    /// The chest's directories and their files, for a failure's message.
    package var layout: String {
        ["", "incoming", "messages", "rejected"].map { "\($0.isEmpty ? "inbox" : $0): \(names(in: $0))" }.joined(
            separator: ", ")
    }

    package func names(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: chest + (directory.isEmpty ? "" : "/" + directory)))
            ?? [])
            .filter { !$0.hasPrefix(".tmp-") }.sorted()
    }
}

/// Sealed message files made in-process, fast enough for thousands.
package struct MessageFactory {
    package let identity: Identity

    /// An identity kept in `directory` (made on first use), like a user's.
    package init(configDirectory: String) throws {
        identity = try Identity.loadOrCreate(at: configDirectory + "/chest/" + Identity.fileName)
    }

    package func message(title: String, pages: [Page], from: String = "Tester", created: Date = Date()) -> Message {
        Sealer.seal(
            Message(
                id: MessageID(bytes: Sealer.randomBytes(16)), title: title, from: from, created: created,
                pages: pages), with: identity)
    }

    /// Seals a one-page message with these locks in set A and drops it into `directory`; returns its ID.
    @discardableResult
    package func drop(_ title: String, _ locks: [Lock], into directory: String) throws -> String {
        let message = message(title: title, pages: [Page(text: "\(title) is open", setA: locks)])
        try MessageFile.encode(message).write(to: URL(fileURLWithPath: directory + "/\(title).locked"))
        return message.id.rawValue
    }

    /// Writes `count` one-page messages, each locked until a year from now, into `directory`; returns their IDs.
    package func writeMany(_ count: Int, into directory: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var ids: [String] = []
        for index in 0..<count {
            let message = message(
                title: "Message \(index)",
                pages: [
                    Page(text: "page \(index)", setA: [.time(Date(timeIntervalSinceNow: 86_400 * 365))])
                ])
            try MessageFile.encode(message).write(to: URL(fileURLWithPath: directory + "/m\(index).locked"))
            ids.append(message.id.rawValue)
        }
        return ids
    }
}
