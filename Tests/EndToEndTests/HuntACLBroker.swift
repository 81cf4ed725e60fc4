import ChestCore
import ChestIO
import ChestTestSupport
import Foundation

/// A broker as docs/HUNTS.md "Broker" sets it up: no anonymous clients, a password file, examples/mosquitto/hunt.acl.
struct HuntACLBroker {
    let broker: MosquittoBroker
    let passwords: String

    init() throws {
        let directory = try makeTemporaryDirectory("acl-broker")
        passwords = directory.appendingPathComponent("hunt.passwd").path
        try MosquittoBroker.writePasswordFile(["nobody": "nothing"], to: passwords)
        let acl = directory.appendingPathComponent("hunt.acl").path
        try FileManager.default.copyItem(
            atPath: GPSLogs.packageRoot.appendingPathComponent("examples/mosquitto/hunt.acl").path, toPath: acl)
        let port = FreePort.onLoopback()
        // The packet size hunt.conf lets through: a mission's 8 MiB photo in one message (docs/HUNTS.md "Missions").
        let conf = try String(
            contentsOfFile: GPSLogs.packageRoot.appendingPathComponent("examples/mosquitto/hunt.conf").path,
            encoding: .utf8)
        let packets = conf.split(separator: "\n").filter { $0.hasPrefix("max_packet_size ") }.map(String.init)
        let configuration =
            [
                MosquittoBroker.runAsLine, "listener \(port) 127.0.0.1", "allow_anonymous false",
                "password_file \(passwords)", "acl_file \(acl)",
            ] + packets + MosquittoBroker.persistenceLines(directory) + MosquittoBroker.logLines(directory)
        broker = try MosquittoBroker(
            port: port, directory: directory, configuration: configuration.joined(separator: "\n") + "\n")
    }

    /// Gives the organiser and every team of `file` their logins (once `team add` has made their passwords), and
    /// restarts the broker to read them.
    func admit(_ file: HuntFile) throws {
        var users = [HuntFile.organiserUser: file.organiserPassword ?? ""]
        for team in file.teams { users[team.name.rawValue] = team.password }
        try MosquittoBroker.writePasswordFile(users, to: passwords)
        try broker.restart()
    }
}
