import ChestCore
import ChestIO
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// What a hostile local user tried against the built chestd, and what it does now (docs/RELIABILITY.md).
@Suite(.realProcesses, .tags(.process), .serialized, .timeLimit(.minutes(3)))
struct HostileInputTests {
    func factory(_ world: ChestHarness) throws -> MessageFactory {
        try MessageFactory(configDirectory: world.root + "/config-alice")
    }

    @Test func idleConnectionsAtADescriptorLimitOf200StallNothing() throws {
        let world = ChestHarness()
        try world.startDaemon()
        let pid = try #require(world.daemon)
        let limit = try Subprocess.run("/usr/bin/prlimit", ["--pid", "\(pid)", "--nofile=200:200"], environment: [:])
        #expect(limit.status == 0, "\(limit.stderr)")
        var idle: [FileDescriptor] = []
        defer { idle.forEach { $0.close() } }
        // A full backlog makes connect(2) wait; chestd keeps taking clients, so each wait ends within seconds.
        for _ in 0..<300 { if let fd = try? UnixSocket.connect(to: world.socket, timeout: 5) { idle.append(fd) } }
        let cpuBefore = cpuSeconds(pid)
        // A second passes, seen as chestd sees it: a time lock due a second from now opens.
        let due = Date(timeIntervalSinceNow: 1)
        try factory(world).drop("meanwhile", [.time(due)], into: world.chest)
        try world.waitUntil("the file dropped meanwhile is in", timeout: 15) { world.names(in: "messages").count == 1 }
        #expect(world.names(in: "incoming").isEmpty)
        try world.waitUntil("its time lock opens", timeout: 15) {
            Date() > due && (try? world.states())?["meanwhile"] == "open"
        }
        #expect(cpuSeconds(pid) - cpuBefore < 0.5, "chestd spins")
        let status = try world.chest(["status", "--json"])
        #expect(status.status == 0, "\(status.stderr)")
    }

    /// User plus system CPU time of a process, in seconds.
    func cpuSeconds(_ pid: pid_t) -> Double {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    @Test func aValidFileThatCouldNotBeReadIsNotReplacedByTheNextOfItsName() throws {
        let world = ChestHarness()
        let factory = try factory(world)
        try world.startDaemon()
        // Its socket answers before its loop has set up the watch: cut its descriptors only once it watches, or it
        // finds the inbox by rescans alone, backing off to 30 s.
        try world.waitUntil("chestd watches the chest", timeout: 30) { world.daemonLog.contains("chestd: watching ") }
        let pid = try #require(world.daemon)
        // chestd out of descriptors: the first note is staged and cannot be read.
        var idle: [FileDescriptor] = []
        #expect(
            try Subprocess.run("/usr/bin/prlimit", ["--pid", "\(pid)", "--nofile=40:40"], environment: [:]).status == 0)
        for _ in 0..<60 { if let fd = try? UnixSocket.connect(to: world.socket, timeout: 5) { idle.append(fd) } }
        try world.waitUntil("chestd runs out of descriptors", timeout: 10) {
            world.daemonLog.contains("control socket: out of file descriptors")
        }
        let first = try factory.drop("note", [.time(Date(timeIntervalSinceNow: 86_400))], into: world.chest)
        // It is staged and put off for want of descriptors, or taken in when chestd has dropped enough silent
        // clients. Until it has left the inbox, a second file of its name would replace it there, as a second
        // `cp` would: nothing chestd could prevent, so the test waits for that first (it may take a few retries
        // on a loaded machine, where even staging can find no descriptor).
        try world.waitUntil("chestd has taken the first note out of the inbox", timeout: 60) {
            !FileManager.default.fileExists(atPath: world.chest + "/note.locked")
        }
        let second = try MessageFactory(configDirectory: world.root + "/config-bob")
            .drop("note", [.time(Date(timeIntervalSinceNow: 86_400))], into: world.chest)
        idle.forEach { $0.close() }
        // A staged file chestd could not read waits for a rescan, which backs off to 30 s while descriptors lack.
        try world.waitUntil("both notes are in", timeout: 60) { world.names(in: "messages").count == 2 }
        // chestd frees the descriptors of the 60 closed connections as it hears them go; until then a client may
        // be told "out of file descriptors; try again shortly", as designed.
        var lastAnswer = ""
        do {
            try world.waitUntil("chestd lists both notes", timeout: 15) {
                do {
                    let listed = try world.list()
                    lastAnswer = "\(listed.compactMap { $0["id"]?.string })"
                    return Set(listed.compactMap { $0["id"]?.string }) == [first, second]
                } catch {
                    lastAnswer = "\(error)"
                    return false
                }
            }
        } catch {
            Issue.record("the last answer of chest list: \(lastAnswer)")
            throw error
        }
    }

    @Test func aSparse3GBFileIsRefusedBySizeInTheInboxAndOnImport() throws {
        let world = ChestHarness()
        try world.startDaemon()
        for path in [world.root + "/sparse.locked", world.chest + "/sparse.locked"] {
            #expect(creat(path + ".part", 0o600) >= 0)
            #expect(truncate(path + ".part", 3 << 30) == 0)
            #expect(rename(path + ".part", path) == 0)
        }
        let imported = try world.chest(["import", "sparse.locked"])
        #expect(imported.status == 1)
        #expect(imported.stderr.contains("3221225472 bytes, over the 13631488-byte limit"), "\(imported.stderr)")
        try world.waitUntil("the sparse file is set aside", timeout: 15) {
            world.names(in: "rejected").contains("sparse.locked.reason")
        }
        let reason = try String(contentsOfFile: world.chest + "/rejected/sparse.locked.reason", encoding: .utf8)
        #expect(reason.contains("3221225472 bytes"))
    }

    @Test func hostileArgon2ParametersAreRefusedWithAReason() throws {
        let world = ChestHarness()
        try world.startDaemon()
        let hash = "$argon2id$v=19$m=2097152,t=20,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo"
        try factory(world).drop("greedy", [.pin(hash: hash)], into: world.chest)
        try world.waitUntil("it is set aside", timeout: 15) {
            world.names(in: "rejected").contains("greedy.locked.reason")
        }
        let reason = try String(contentsOfFile: world.chest + "/rejected/greedy.locked.reason", encoding: .utf8)
        #expect(reason.contains("memory cost m=2097152 KiB is outside 8...131072"), "\(reason)")
    }

    @Test func terminalEscapesAndNewlinesAreShownEscaped() throws {
        let world = ChestHarness()
        try world.startDaemon(["-v"])
        let title = "Hi\u{1B}[2J\u{1B}]0;owned\u{07}\nchestd: forged line"
        let factory = try factory(world)
        let message = factory.message(
            title: title, pages: [Page(text: "text\u{1B}]8;;http://x\u{1B}\\")],
            from: "Eve\u{1B}[31m")
        try MessageFile.encode(message).write(to: URL(fileURLWithPath: world.chest + "/\u{1B}[2Jname.locked"))
        try world.waitUntil("it is in", timeout: 15) { world.names(in: "messages").count == 1 }
        for arguments in [["list"], ["read", message.id.rawValue]] {
            let output = try world.chest(arguments)
            #expect(output.status == 0)
            #expect(!output.stdout.unicodeScalars.contains("\u{1B}"), "\(arguments)")
            #expect(output.stdout.contains(#"Hi\e[2J\e]0;owned\u{7}\nchestd: forged line"#), "\(output.stdout)")
        }
        #expect(!world.daemonLog.unicodeScalars.contains("\u{1B}"))
        #expect(!world.daemonLog.split(separator: "\n").contains { $0.hasPrefix("chestd: forged") })
    }

    @Test func aFileNameThatIsNotUTF8IsIngested() throws {
        let world = ChestHarness()
        try world.startDaemon()
        let message = try factory(world).message(title: "Latin-1", pages: [Page(text: "x")])
        let path = Array((world.chest + "/caf").utf8) + [0xE9] + Array(".locked".utf8) + [0]
        let data = MessageFile.encode(message)
        let fd = path.withUnsafeBufferPointer {
            open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT, 0o600)
        }
        _ = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        try world.waitUntil("it is in", timeout: 15) { world.names(in: "messages").count == 1 }
        #expect(world.names(in: "").filter { $0.hasSuffix(".locked") }.isEmpty)
    }

    /// Writes the first half of `data` to `path`, runs `meanwhile` with the file still open, then writes the rest.
    func writeInHalves(_ data: Data, to path: String, meanwhile: () throws -> Void) throws {
        let fd = open(path, O_WRONLY | O_CREAT, 0o600)
        defer { close(fd) }
        _ = data.prefix(data.count / 2).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        try meanwhile()
        _ = data.dropFirst(data.count / 2).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    @Test func aFileStillBeingWrittenAtStartIsTakenWhenDone() throws {
        let world = ChestHarness()
        let data = MessageFile.encode(try factory(world).message(title: "Slow", pages: [Page(text: "x")]))
        try writeInHalves(data, to: world.chest + "/slow.locked") {
            try world.startDaemon(["-v"])
            try world.waitUntil("chestd sees the file is still being written", timeout: 10) {
                world.daemonLog.contains("still being written")
            }
        }
        try world.waitUntil("it is in", timeout: 15) { world.names(in: "messages").count == 1 }
        #expect(world.names(in: "rejected").isEmpty)
    }

    @Test func aRefusedFileFinishedAfterARescanIsTriedAgain() throws {
        let world = ChestHarness()
        try world.startDaemon()
        let data = MessageFile.encode(try factory(world).message(title: "Paused", pages: [Page(text: "x")]))
        let temporary = world.root + "/paused.locked"
        try writeInHalves(data, to: temporary) {
            #expect(rename(temporary, world.chest + "/paused.locked") == 0)  // renamed in, still open for writing
            try world.waitUntil("the half is refused", timeout: 15) {
                world.names(in: "rejected").contains("paused.locked.reason")
            }
            world.signalDaemon(SIGHUP)
            try world.waitUntil("chestd rescans", timeout: 15) {
                world.daemonLog.contains("SIGHUP from pid \(getpid()) (")
                    && world.daemonLog.contains("reloading the settings and rescanning the chest")
            }
        }
        try world.waitUntil("the whole is in", timeout: 15) { world.names(in: "messages").count == 1 }
        #expect(world.names(in: "rejected").isEmpty)
    }

    @Test func aSecondChestdOnTheSameChestSaysWhoHasIt() throws {
        let world = ChestHarness()
        try world.startDaemon()
        let pid = try #require(world.daemon)
        var environment = world.environment()
        environment["CHEST_SOCKET"] = world.root + "/other/chestd.sock"
        let second = try Subprocess.run(ChestHarness.products + "/chestd", [], environment: environment)
        #expect(second.status == 1)
        #expect(second.stderr.contains("another chestd (pid \(pid)) is using the chest"), "\(second.stderr)")
        #expect(world.daemonIsRunning)
    }

    @Test func aClientOfAnotherUserIsToldWhy() throws {
        let world = ChestHarness()
        try world.startDaemon()
        // nobody, with only the right to pass the socket directory's permissions.
        let script =
            "import socket; s = socket.socket(socket.AF_UNIX); s.connect('\(world.socket)'); print(s.recv(4096).decode())"
        let client = try Subprocess.run(
            "/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", "--inh-caps=+dac_override",
                "--ambient-caps=+dac_override",
                "/usr/bin/python3", "-c", script,
            ], environment: ["PATH": "/usr/bin:/bin"])
        try #require(client.status == 0, "cannot run a client as another user here: \(client.stderr)")
        #expect(
            client.stdout.contains(#""ok":false"#) && client.stdout.contains("admits its owner only"),
            "\(client.stdout)")
    }
}
