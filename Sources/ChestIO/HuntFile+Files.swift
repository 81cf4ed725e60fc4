import ChestCore
import FoundationEssentials
import Glibc

/// Hunt files on disk: read like a message file (size checked before reading), written atomically with mode 0600,
/// since they hold the broker passwords and signing keys (docs/HUNTS.md "Hunt files").
extension HuntFile {
    /// The join file's name in the config directory, where `chest hunt join` keeps it for chestd.
    package static let joinedFileName = "hunt.json"

    /// Reads and checks a hunt file; the error names the file and what is wrong.
    package static func read(path: String) throws -> HuntFile {
        let data: Data
        do {
            data = try MessageFileReader.read(path: path)
        } catch {
            throw ChestError("\(path): \(error)")
        }
        do {
            return try decode(data)
        } catch {
            throw ChestError("\(path): \(error)")
        }
    }

    /// Replaces the file at `path` (mode 0600), or writes through a device, FIFO or `-` (`OutputFile`).
    package func write(to path: String) throws {
        do {
            try OutputFile.write(fileBytes, to: path)
        } catch {
            throw ChestError("cannot write \(path): \(error)")
        }
    }
}
