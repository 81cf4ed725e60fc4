import ChestCore
import FoundationEssentials
import Glibc

/// `CHEST/attempts/ID.json`: each message's PIN attempts, kept apart from its state so that neither `delete`,
/// a new `import` of the same message, nor a deleted state file resets the count (docs/DESIGN.md "Sealed pages").
package struct AttemptsLedger: Sendable {
    package let directory: String

    package init(chestRoot: String) {
        directory = chestRoot + "/attempts"
    }

    /// Every message's attempts; unreadable entries are skipped (the state's own count still applies).
    package func loadAll() -> [MessageID: PINAttempts] {
        var ledger: [MessageID: PINAttempts] = [:]
        let decoder = ChestJSON.decoder()
        for name in (try? Directory.names(in: directory)) ?? [] where name.hasSuffix(".json") {
            guard let id = MessageID(String(name.dropLast(5))),
                let data = FileManager.default.contents(atPath: directory + "/" + name),
                let attempts = try? decoder.decode(PINAttempts.self, from: data)
            else { continue }
            ledger[id] = attempts
        }
        return ledger
    }

    /// Writes one message's attempts durably.
    package func record(_ id: MessageID, _ attempts: PINAttempts) throws(SystemCallError) {
        try Directory.create(directory)
        var clean = attempts
        clean.pending = nil
        try AtomicFile.write(try! ChestJSON.encoder().encode(clean), to: directory + "/\(id.rawValue).json")
    }
}
