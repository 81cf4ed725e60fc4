import ChestCore
import FoundationEssentials
import Glibc

/// Where the known senders are kept: `known-senders.json` in the config directory, mode 0600, written whole and
/// atomically (docs/SECURITY.md "Known senders").
package enum KnownSendersFile {
    package static func path(_ settings: Settings) -> String { settings.configDirectory + "/known-senders.json" }

    /// The known senders; none when the file does not exist yet; an error for a file that cannot be read.
    package static func load(_ settings: Settings) throws -> KnownSenders {
        guard let data = FileManager.default.contents(atPath: path(settings)) else { return KnownSenders() }
        do {
            return try ChestJSON.decoder().decode(KnownSenders.self, from: data)
        } catch {
            throw ChestError("\(path(settings)) is not a list of known senders; move it away to start afresh")
        }
    }

    package static func save(_ senders: KnownSenders, _ settings: Settings) throws {
        try Directory.create(settings.configDirectory)
        var data = try ChestJSON.encoder(pretty: true).encode(senders)
        data.append(0x0a)
        try AtomicFile.write(data, to: path(settings))
    }
}
