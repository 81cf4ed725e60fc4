import ChestCore
import ChestIO
import FoundationEssentials

/// What the reader's chest directory holds, read directly (chestd need not run): the messages with their state
/// and the recorded track. `map` and `export` draw and write it.
struct ChestContents {
    struct Target {
        var message: Message
        var page: Int
        var set: LockSetName
        var center: Coordinate
        var radius: Double
        var open: Bool
        /// The organiser's name for the place (docs/FORMAT.md "Place labels").
        var label: String?

        /// The organiser's name, else the message's title and the page ("The hill walk p2", "… p2 B").
        var name: String { label ?? "\(message.title) p\(page)" + (set == .b ? " B" : "") }
    }

    struct Opening {
        var message: Message
        var page: Int
        var at: Date
        /// Where the reader was, by the last confirming fix of the unlock's evidence, when there is one.
        var place: Coordinate?
        /// The receiver's time as the page opened, when chestd trusted it.
        var gpsTime: Date?
    }

    var messages: [(message: Message, state: MessageState)]
    var track: TrackLog

    /// The chest's messages, only those whose ID starts with one of `prefixes` when any are given.
    init(settings: Settings, prefixes: [String] = []) throws {
        let loaded = ChestStore(root: settings.chestDirectory).loadAll(ingestedAt: Date()).messages
        // A prefix of a chest ID, or of the own ID of a message filed under another.
        func named(_ stored: StoredMessage, _ prefix: String) -> Bool {
            stored.id.rawValue.hasPrefix(prefix.lowercased())
                || stored.message.id.rawValue.hasPrefix(prefix.lowercased())
        }
        messages = loaded.filter { stored in prefixes.isEmpty || prefixes.contains { named(stored, $0) } }
            .map { ($0.message, $0.state) }
        if let unknown = prefixes.first(where: { prefix in !loaded.contains { named($0, prefix) } }) {
            throw ChestError("no message with an ID starting with \(unknown) in the chest")
        }
        let path = TrackRecorder.path(inChest: settings.chestDirectory)
        track = TrackLog(text: (try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
    }

    /// Every location lock, whether its page is open yet.
    var targets: [Target] {
        messages.flatMap { entry in
            entry.message.pages.enumerated().flatMap { index, page in
                LockSetName.allCases.flatMap { set in
                    page[set].compactMap { lock -> Target? in
                        guard case let .location(center, radius) = lock else { return nil }
                        return Target(
                            message: entry.message, page: index + 1, set: set, center: center, radius: radius,
                            open: entry.state.isOpen(page: index + 1), label: page.labels[set])
                    }
                }
            }
        }
    }

    /// Pages opened by a lock (not open from the start), oldest first.
    var openings: [Opening] {
        messages.flatMap { entry in
            entry.state.openPages.filter { $0.set != nil }.map { open in
                let fix = open.evidence?.fixes.last { $0.latitude != nil && $0.longitude != nil }
                return Opening(
                    message: entry.message, page: open.page, at: open.at,
                    place: fix.map { Coordinate(latitude: $0.latitude!, longitude: $0.longitude!) },
                    gpsTime: open.evidence?.gpsTime)
            }
        }.sorted { $0.at < $1.at }
    }

    /// Where the track was at `time`: the recorded point nearest in time, within a minute.
    func position(at time: Date) -> Coordinate? {
        track.points.min { abs($0.time.timeIntervalSince(time)) < abs($1.time.timeIntervalSince(time)) }
            .flatMap { abs($0.time.timeIntervalSince(time)) <= 60 ? $0.coordinate : nil }
    }
}
