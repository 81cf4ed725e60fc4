import ChestCore
import ChestIO
import ChestSeal
import ChestTestSupport
import Foundation
import Testing

/// Issue 59 item 7: `hunt create` and `hunt team add` print each user's line of Mosquitto's password file, and a
/// real Mosquitto whose password file is those lines as printed (README "A first hunt") lets each user in with its
/// password, and nobody with another.
@Suite(.realProcesses, .tags(.process, .mosquitto), .timeLimit(.minutes(3)))
struct BrokerPasswordLineTests {
    /// PBKDF2-HMAC-SHA512's published vector (password "password", salt "salt", one iteration), and Mosquitto's
    /// line for a known salt as Python's hashlib computes it.
    @Test func theHashIsPBKDF2WithHMACSHA512() {
        let vector = MosquittoPassword.pbkdf2(Array("password".utf8), salt: Array("salt".utf8), iterations: 1)
        #expect(
            vector.map { String(format: "%02x", $0) }.joined()
                == "867f70cf1ade02cff3752599a3a53dc4af34c7a669815ae5d513554e1c8cf252c02d470a285a0501bad999bfe943c08f050235d7d68b1da55e63f73b60a57fce"
        )
        #expect(
            MosquittoPassword.line(user: "red", password: "BoARbxOAVgzJY0wkr66krK4D", salt: Array(0..<12))
                == "red:$7$101$AAECAwQFBgcICQoL$igPJAwPH0wk19YVnK2eldL+tF4/XGbVT7ja8EEJsk3LMP5H0JwebrdFsra3qxJNJGVBrKGcBkg3NgB8DdR+uew=="
        )
    }

    @Test func theLinesPrintedMakeAPasswordFileMosquittoAccepts() throws {
        let world = ChestHarness()
        let hunt = world.root + "/park.hunt"
        let created = try world.chest(["hunt", "create", "Park hunt", "--broker", "mqtt://127.0.0.1:1883", "-o", hunt])
        #expect(created.status == 0, "\(created.stderr)")
        var lines = created.stdout.split(separator: "\n").filter { $0.hasPrefix("password file line: ") }
        for team in ["red", "Die Eulen"] {
            let added = try world.chest(["hunt", "team", "add", team, "--hunt", hunt])
            #expect(added.status == 0, "\(added.stderr)")
            lines += added.stdout.split(separator: "\n").filter { $0.hasPrefix("password file line: ") }
        }
        try #require(lines.count == 3, "\(lines)")
        let broker = try Self.broker(passwordFile: lines.map { $0.dropFirst("password file line: ".count) })
        defer { broker.stop() }
        let file = try HuntFile.read(path: hunt)
        var users = [(HuntFile.organiserUser, try #require(file.organiserPassword))]
        users += file.teams.map { ($0.name.rawValue, $0.password) }
        try Self.check(broker, users)
    }

    /// The README's password file, made by its commands as written, lets its organiser and team in.
    @Test func theReadmesPasswordFileLetsItsUsersIn() throws {
        let readme = try String(contentsOf: GPSLogs.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## A first hunt")).upperBound
        let echoes = readme[section...].split(separator: "\n").filter { $0.hasPrefix("$ echo '") }
        try #require(echoes.count == 2, "\(echoes)")
        let directory = try makeTemporaryDirectory("readme")
        let made = try Subprocess.run(
            "/bin/sh", ["-c", echoes.map { $0.dropFirst(2) }.joined(separator: "\n")], environment: [:],
            directory: directory.path)
        #expect(made.status == 0, "\(made.stderr)")
        let lines = try String(contentsOfFile: directory.path + "/broker.passwd", encoding: .utf8)
        let broker = try Self.broker(passwordFile: lines.split(separator: "\n"))
        defer { broker.stop() }
        try Self.check(broker, [("organiser", "M39IiOGzxVSiPnjZpfzjeyO6"), ("red", "BoARbxOAVgzJY0wkr66krK4D")])
    }

    /// A broker on a free port whose password file is `lines`, and nothing else: no anonymous clients.
    static func broker(passwordFile lines: [Substring]) throws -> MosquittoBroker {
        let directory = try makeTemporaryDirectory("mosquitto")
        let passwords = directory.appendingPathComponent("broker.passwd").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: passwords, atomically: true, encoding: .utf8)
        let port = FreePort.onLoopback()
        return try MosquittoBroker(
            port: port, directory: directory,
            configuration: ([
                MosquittoBroker.runAsLine, "listener \(port) 127.0.0.1", "allow_anonymous false",
                "password_file \(passwords)",
            ] + MosquittoBroker.logLines(directory)).joined(separator: "\n") + "\n")
    }

    /// Each user is let in with its password and refused with another.
    static func check(_ broker: MosquittoBroker, _ users: [(String, String)]) throws {
        for (user, password) in users {
            #expect(throws: Never.self, "\(user) with its password") {
                try broker.publish("test/\(user)", "hello", username: user, password: password)
            }
            #expect(throws: (any Error).self, "\(user) with another password") {
                try broker.publish("test/\(user)", "hello", username: user, password: password + "x")
            }
        }
    }
}
