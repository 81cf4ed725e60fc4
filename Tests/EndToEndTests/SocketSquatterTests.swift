import ChestTestSupport
import Foundation
import Glibc
import Testing

/// `chest` sends nothing to a socket another user could have put in chestd's place: the socket's folder must be
/// the user's alone, and the listening process the user's own (`SO_PEERCRED`), as chestd requires of its side
/// (docs/SECURITY.md "2. The client's socket"). The squatter is a real process listening on a real Unix socket, run
/// as another user of the system, so the suite needs root.
@Suite(.realProcesses, .tags(.process), .enabled(if: geteuid() == 0, "running a squatter as another user needs root"))
struct SocketSquatterTests {
    static let nobody = uid_t(65534)

    /// A process listening at `socket` that records every byte it is sent in `socket.got` and answers each line
    /// as chestd would accept a PIN; `socket.ready` appears once it listens.
    final class Squatter {
        let socket: String
        let process: TestProcess

        init(at socket: String, as user: uid_t?) throws {
            self.socket = socket
            let script = """
                import os, socket, sys
                path = sys.argv[1]
                server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                server.bind(path)
                os.chmod(path, 0o777)
                server.listen(8)
                open(path + ".ready", "w").close()
                while True:
                    connection, _ = server.accept()
                    data = connection.recv(65536)
                    with open(path + ".got", "ab") as got:
                        got.write(data)
                    connection.sendall(b'{"ok":true,"result":{"accepted":{"latched":[],"opened":[1]}}}\\n')
                    connection.close()
                """
            let python = ["/usr/bin/python3", "-c", script, socket]
            let command = user.map { ["/usr/bin/setpriv", "--reuid=\($0)", "--regid=\($0)", "--clear-groups", "--"] }
            let words = (command ?? []) + python
            let log = socket + ".log"
            process = try TestProcess(
                words[0], Array(words.dropFirst()), wholeEnvironment: ["PATH": "/usr/bin:/bin"], stdout: log,
                stderr: log)
            try waitUntil("the squatter listens at \(socket)", timeout: 30) {
                access(socket + ".ready", F_OK) == 0
            }
        }

        deinit {
            process.signal(SIGKILL)
            process.wait()
        }

        /// What the squatter was sent.
        var received: String {
            (try? String(contentsOfFile: socket + ".got", encoding: .utf8)) ?? ""
        }
    }

    static func makeFolder(mode: mode_t, owner: uid_t) throws -> String {
        var template = Array("/tmp/chest-squat-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw Failure(description: "mkdtemp") }
        let folder = String(cString: made)
        #expect(chmod(folder, mode) == 0 && chown(folder, owner, owner) == 0)
        return folder
    }

    /// `chest pin` with `XDG_RUNTIME_DIR` at `runtime` (so the socket is `runtime/chestd.sock`), as `user`.
    static func pin(runtime: String, as user: uid_t?) throws -> Subprocess.Outcome {
        let home = try makeFolder(mode: 0o700, owner: user ?? 0)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let environment = [
            "PATH": "/usr/bin:/bin", "HOME": home, "XDG_CONFIG_HOME": home, "XDG_RUNTIME_DIR": runtime,
        ]
        let chest = [ChestHarness.products + "/chest", "pin", "4c6f636b", "4821"]
        guard let user else { return try Subprocess.run(chest[0], Array(chest.dropFirst()), environment: environment) }
        return try Subprocess.run(
            "/usr/bin/setpriv", ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", "--"] + chest,
            environment: environment)
    }

    /// A shared runtime folder (mode 1777), nobody's socket in it: root's `chest pin` refuses before it sends.
    @Test func aSharedFolderIsRefusedBeforeAnythingIsSent() throws {
        let shared = try Self.makeFolder(mode: 0o1777, owner: 0)
        defer { try? FileManager.default.removeItem(atPath: shared) }
        let squatter = try Squatter(at: shared + "/chestd.sock", as: Self.nobody)
        let outcome = try Self.pin(runtime: shared, as: nil)
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stderr.contains("its folder is open to other users (mode 1777)"), "\(outcome.stderr)")
        #expect(!outcome.stdout.contains("accepted"), "\(outcome.stdout)")
        #expect(squatter.received.isEmpty, "the squatter got: \(squatter.received)")
    }

    /// A private folder of nobody's in which another user (root here) listens: nobody's `chest pin` checks the
    /// peer's uid and refuses before it sends.
    @Test func anotherUsersListenerIsRefusedBeforeAnythingIsSent() throws {
        let folder = try Self.makeFolder(mode: 0o700, owner: Self.nobody)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let squatter = try Squatter(at: folder + "/chestd.sock", as: nil)
        let outcome = try Self.pin(runtime: folder, as: Self.nobody)
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stderr.contains("served by root (uid 0), not by you"), "\(outcome.stderr)")
        #expect(!outcome.stdout.contains("accepted"), "\(outcome.stdout)")
        #expect(squatter.received.isEmpty, "the squatter got: \(squatter.received)")
    }
}
