import ChestIO
import Foundation
import Glibc
import Synchronization

/// A real Mosquitto 2.0 broker on a free loopback port, in a temporary directory with a generated configuration,
/// persistence on, so that a test can kill it (SIGKILL) and start it again with the same port and database.
package final class MosquittoBroker: @unchecked Sendable {
    package let host = "127.0.0.1"
    package let port: Int
    /// The configuration, password file, ACL, certificates, database and logs.
    package let directory: URL
    package let configFile: String
    /// The CA that signed the broker's certificate, when it listens with TLS.
    package let caFile: String?
    private let process = Mutex<TestProcess?>(nil)
    private let starts = Mutex(0)

    /// Starts `mosquitto -c` with `configuration` written to `directory`/mosquitto.conf, and returns once `port`
    /// accepts connections.
    package init(port: Int, directory: URL, configuration: String, caFile: String? = nil) throws {
        self.port = port
        self.directory = directory
        self.caFile = caFile
        configFile = directory.appendingPathComponent("mosquitto.conf").path
        try configuration.write(toFile: configFile, atomically: true, encoding: .utf8)
        try launch()
    }

    /// A broker for `users` (name: password; none means anonymous clients are allowed), with an optional ACL file
    /// text and an optional TLS listener with a certificate from a fresh test CA.
    package static func start(
        users: [String: String] = [:], acl: String? = nil, tls: Bool = false,
        extraConfiguration: String = ""
    ) throws -> MosquittoBroker {
        let directory = try makeTemporaryDirectory("mosquitto")
        let port = FreePort.onLoopback()
        var lines = [runAsLine, "listener \(port) \(MosquittoBroker.loopback)"]
        var caFile: String?
        if tls {
            let authority = try TestCertificateAuthority(in: directory)
            caFile = authority.caFile
            lines += [
                "cafile \(authority.caFile)", "certfile \(authority.certificateFile)",
                "keyfile \(authority.keyFile)",
            ]
        }
        if users.isEmpty {
            lines.append("allow_anonymous true")
        } else {
            let passwords = directory.appendingPathComponent("passwords").path
            try writePasswordFile(users, to: passwords)
            lines += ["allow_anonymous false", "password_file \(passwords)"]
        }
        if let acl {
            let file = directory.appendingPathComponent("acl").path
            try acl.write(toFile: file, atomically: true, encoding: .utf8)
            lines.append("acl_file \(file)")
        }
        lines += persistenceLines(directory) + logLines(directory) + [extraConfiguration]
        return try MosquittoBroker(
            port: port, directory: directory, configuration: lines.joined(separator: "\n") + "\n",
            caFile: caFile)
    }

    /// Two anonymous brokers, the second (`edge`) bridging `chest/#` and `owntracks/#` both ways to the first
    /// (`main`), returned once the bridge is connected.
    package static func bridged() throws -> (main: MosquittoBroker, edge: MosquittoBroker) {
        let main = try start()
        let edge = try start(
            extraConfiguration: """
                connection chest-bridge
                address \(main.host):\(main.port)
                remote_clientid chest-bridge
                topic chest/# both 1
                topic owntracks/# both 1
                cleansession false
                restart_timeout 1 5
                """)
        guard main.waitForBridge("chest-bridge", timeout: 10) else {
            throw SpawnFailure(description: "the bridge did not connect: \(edge.log)")
        }
        return (main, edge)
    }

    /// Waits until the bridge `clientID` has announced itself connected on this broker (its retained notification
    /// `$SYS/broker/connection/<clientID>/state` is "1").
    package func waitForBridge(
        _ clientID: String, timeout: Double, username: String? = nil,
        password: String? = nil
    ) -> Bool {
        let arguments =
            clientArguments(username, password)
            + ["-t", "$SYS/broker/connection/\(clientID)/state", "-C", "1", "-W", "1"]
        return holdsWithin(timeout, every: 0.1) {
            let outcome = try? Subprocess.run(
                "/usr/bin/mosquitto_sub", arguments, environment: ProcessInfo.processInfo.environment)
            return outcome?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1"
        }
    }

    /// Publishes with `mosquitto_pub`, an MQTT client independent of chest's; throws when it fails.
    package func publish(
        _ topic: String, _ payload: String, qos: Int = 1, retain: Bool = false,
        username: String? = nil, password: String? = nil
    ) throws {
        let outcome = try Subprocess.run(
            "/usr/bin/mosquitto_pub",
            clientArguments(username, password) + [
                "-q", String(qos), "-t", topic, "-m", payload,
            ] + (retain ? ["-r"] : []), environment: ProcessInfo.processInfo.environment)
        guard outcome.status == 0 else {
            throw SpawnFailure(description: "mosquitto_pub \(topic): \(outcome.stderr)")
        }
    }

    /// Starts `mosquitto_sub -v` on `patterns`: its output has one line per message, "topic payload". End it with
    /// `terminate()`.
    package func subscriber(_ patterns: [String], username: String? = nil, password: String? = nil) throws
        -> TestProcess
    {
        try TestProcess(
            "/usr/bin/mosquitto_sub",
            clientArguments(username, password) + ["-v", "-q", "1"]
                + patterns.flatMap { ["-t", $0] },
            output: directory.appendingPathComponent("sub-\(UUID().uuidString.prefix(8)).out"))
    }

    private func clientArguments(_ username: String?, _ password: String?) -> [String] {
        var arguments = ["-h", host, "-p", String(port)]
        if let caFile { arguments += ["--cafile", caFile] }
        if let username, let password { arguments += ["-u", username, "-P", password] }
        return arguments
    }

    /// Kills the broker with SIGKILL, as a crash would: nothing is saved beyond what autosave already wrote.
    package func kill() {
        process.withLock { process in
            if let running = process, running.isRunning {
                running.signal(SIGKILL)
                running.waitForExit(timeout: 5)
            }
            process = nil
        }
    }

    /// Starts the broker again on the same port with the same configuration and database.
    package func restart() throws {
        kill()
        try launch()
    }

    /// Stops the broker with SIGTERM (it saves its database) and removes its directory.
    package func stop() {
        process.withLock { process in
            process?.terminate()
            process = nil
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Everything the broker logged, over all its runs: its log file, then what it wrote to standard error.
    package var log: String {
        let files = ["mosquitto.log"] + (1...max(1, starts.withLock { $0 })).map { "mosquitto-\($0).out" }
        return files.map {
            (try? String(contentsOfFile: directory.appendingPathComponent($0).path, encoding: .utf8)) ?? ""
        }
        .joined()
    }

    deinit { stop() }

    private func launch() throws {
        let run = starts.withLock {
            $0 += 1
            return $0
        }
        let started = try TestProcess(
            "/usr/sbin/mosquitto", ["-c", configFile],
            output: directory.appendingPathComponent("mosquitto-\(run).out"))
        process.withLock { $0 = started }
        // A broker that ended could not bind the port: what listens there then is another test's server.
        guard FreePort.waitUntilListening(port, timeout: 10, unless: { !started.isRunning }), started.isRunning
        else {
            let output = log
            kill()
            throw SpawnFailure(description: "mosquitto did not listen on port \(port): \(output)")
        }
    }

    // MARK: Configuration pieces

    static let loopback = "127.0.0.1"

    /// Run as root (as in a container), Mosquitto would drop to the `mosquitto` user and could not read the test's
    /// private files; `user root` keeps it as it is. As anyone else the option is ignored.
    package static var runAsLine: String { getuid() == 0 ? "user root" : "" }

    /// Persistence as a hunt broker needs it: saved after every change, so a killed broker loses nothing it
    /// acknowledged (docs/HUNTS.md "Broker").
    package static func persistenceLines(_ directory: URL) -> [String] {
        // persistence_location is a prefix: without the trailing slash the database lands beside the directory.
        [
            "persistence true", "persistence_location \(directory.path)/", "autosave_on_changes true",
            "autosave_interval 1",
        ]
    }

    /// Logging to `directory`/mosquitto.log, which Mosquitto flushes line by line (unlike its standard output).
    package static func logLines(_ directory: URL) -> [String] {
        [
            "log_dest file \(directory.appendingPathComponent("mosquitto.log").path)", "log_type error",
            "log_type warning", "log_type notice",
            "log_type information", "log_type subscribe", "connection_messages true",
        ]
    }

    /// A Mosquitto password file for `users`, made by `mosquitto_passwd -b` (salted PBKDF2-SHA512 hashes).
    package static func writePasswordFile(_ users: [String: String], to path: String) throws {
        for (index, (user, password)) in users.sorted(by: { $0.key < $1.key }).enumerated() {
            let outcome = try Subprocess.run(
                "/usr/bin/mosquitto_passwd", (index == 0 ? ["-c"] : []) + ["-b", path, user, password],
                environment: ProcessInfo.processInfo.environment)
            guard outcome.status == 0 else {
                throw SpawnFailure(description: "mosquitto_passwd \(user): \(outcome.stderr)\(outcome.stdout)")
            }
        }
    }
}
