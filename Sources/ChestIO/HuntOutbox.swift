import ChestCore
import FoundationEssentials
import Glibc

/// One message waiting for the broker's acknowledgement.
package struct OutboxEntry: Codable, Hashable, Sendable {
    /// The sender's sequence number, also the envelope's `id`.
    package var id: UInt64
    package var topic: String
    package var payload: Data
    package var retain: Bool

    package init(id: UInt64, topic: String, payload: Data, retain: Bool) {
        self.id = id
        self.topic = topic
        self.payload = payload
        self.retain = retain
    }
}

/// The durable, ordered outbox of a hunt's messages (docs/HUNTS.md "Messages on the broker"), `<chest>/outbox/`:
/// one file per entry, `<id, 20 digits>.json`, written atomically and durably before `append` returns, removed
/// once the broker acknowledged it. `next` keeps the lowest id never used, so ids are not reused even after
/// every entry was removed. A crash leaves whole entries or none (a temporary file at most, cleared at open);
/// a full disk makes `append` throw and keeps every earlier entry.
///
/// A retained entry replaces older pending entries of the same topic once it is durable: the broker keeps only
/// the last retained message of a topic, so sending the older ones would only be undone (a team's status).
///
/// Used by one thread only: chestd's loop (docs/ARCHITECTURE.md "Threads").
package final class HuntOutbox {
    package let directory: String
    private var entries: [UInt64: OutboxEntry] = [:]
    /// The next id to hand out.
    private var nextID: UInt64
    /// What `next` says on disk: every id below it has been used.
    private var storedNext: UInt64

    static let counterName = "next"

    /// Creates the directory (0700) when needed and reads the entries there; temporary files a crash left behind
    /// are removed.
    package init(directory: String) throws {
        self.directory = directory
        try Directory.create(directory)
        var highest: UInt64 = 0
        for name in try Directory.names(in: directory) {
            let path = directory + "/" + name
            if name.hasPrefix(AtomicFile.temporaryPrefix) {
                unlink(path)
                continue
            }
            guard name.hasSuffix(".json"), let id = UInt64(name.dropLast(5)) else { continue }
            highest = max(highest, id)
            guard let data = FileManager.default.contents(atPath: path),
                let entry = try? JSONDecoder().decode(OutboxEntry.self, from: data), entry.id == id
            else {
                throw ChestError("\(path) is not an outbox entry; move it away to go on")
            }
            entries[id] = entry
        }
        var counter: UInt64 = 1
        if let data = FileManager.default.contents(atPath: directory + "/" + Self.counterName) {
            guard let value = UInt64(String(decoding: data, as: UTF8.self).trimmed()),
                value >= 1
            else {
                throw ChestError(
                    "\(directory)/\(Self.counterName) is not an outbox counter; without it, message ids "
                        + "could be reused and the board would ignore them")
            }
            counter = value
        }
        storedNext = counter
        nextID = max(counter, highest + 1)
    }

    /// Makes the entry with the next id (`make` builds its topic and payload from the id, e.g. a signed envelope),
    /// writes it durably (the file and the directory synced) and only then returns it. Throws, having kept every
    /// earlier entry, when the disk refuses. Such an id was never written, so a reopened outbox may hand it out
    /// again; nothing with it can have reached the broker.
    package func append(_ make: (UInt64) throws -> (topic: String, payload: Data, retain: Bool)) throws -> OutboxEntry {
        let id = nextID
        let made = try make(id)
        let entry = OutboxEntry(id: id, topic: made.topic, payload: made.payload, retain: made.retain)
        nextID = id + 1
        guard try AtomicFile.write(try JSONEncoder().encode(entry), toNew: path(id)) else {
            throw ChestError("\(path(id)) exists already; the outbox's counter is behind its entries")
        }
        entries[id] = entry
        if entry.retain {
            // The new entry is durable already: an older one that cannot be removed now is only sent first, and
            // the receiver's gate puts them in order.
            for older in entries.values where older.retain && older.topic == entry.topic && older.id < id {
                try? remove(older.id)
            }
        }
        return entry
    }

    /// Every entry waiting, in id order.
    package var pending: [OutboxEntry] { entries.keys.sorted().map { entries[$0]! } }

    /// How many entries wait, without sorting them.
    package var count: Int { entries.count }

    /// Forgets an entry once the broker acknowledged it; an id not pending is no error (a replaced status).
    package func remove(_ id: UInt64) throws {
        guard entries[id] != nil else { return }
        // Once the file is gone, only the counter remembers that this id was used.
        if id >= storedNext {
            try AtomicFile.write(Data("\(nextID)\n".utf8), to: directory + "/" + Self.counterName)
            storedNext = nextID
        }
        try AtomicFile.remove(path(id))
        entries[id] = nil
    }

    /// Where entry `id` lives: its number, zero-padded to 20 digits so that names sort as numbers.
    func path(_ id: UInt64) -> String {
        let digits = String(id)
        return directory + "/" + String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".json"
    }
}
