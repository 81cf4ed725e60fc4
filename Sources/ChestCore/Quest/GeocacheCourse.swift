import FoundationEssentials

/// A geocaching GPX as a quest (docs/QUEST.md "A course from a geocaching GPX"): each cache or stage with a point is
/// a page that opens at it, a sealed place of `radius`, in file order, each page waiting for the one before it;
/// five pages a message, the next message's first page waiting for the last page of the one before. Pure: the
/// caller reads the file (ChestGPX) and parses the quest text this writes with `QuestParser`, so `chest quest from`
/// writes exactly what `preview`, `simulate` and `compose --quest` build.
package struct GeocacheCourse: Hashable, Sendable {
    /// Something in the file that the course leaves out or changes, with its line.
    package struct Note: Hashable, Sendable, CustomStringConvertible {
        package var line: Int
        package var text: String

        package init(line: Int, _ text: String) {
            self.line = line
            self.text = text
        }

        package var description: String { "\(line): \(text)" }
    }

    package var waypoints: [GeocacheWaypoint]
    /// The file's name as written, for the quest's comments and the messages' names.
    package var fileName: String
    /// The GPX's own `<name>` (GPX 1.0) or `<metadata><name>` (1.1), the messages' title when there is one.
    package var name: String?
    /// The radius of every place, in metres.
    package var radius: Double
    /// Faults the reader found and read past (bytes that were not UTF-8), reported with the course's own.
    package var readerNotes: [Note] = []
    /// The order of its pages when the organiser chose one (`--in-order`, `--any-order`); `nil` lets the file say.
    package var order: QuestOrder?
    /// The organiser's language (`--lang`, "de", "en"…): a stage with a question line in several languages asks the
    /// one in it. `nil` asks the first.
    package var language: String?

    /// The default radius of a place, in metres.
    package static let defaultRadius = 30.0

    package init(
        waypoints: [GeocacheWaypoint], fileName: String, name: String? = nil, radius: Double = Self.defaultRadius
    ) {
        self.waypoints = waypoints
        self.fileName = fileName
        self.name = name
        self.radius = radius
    }

    /// The course's order and the comment saying why: `order` when given (`--in-order`, `--any-order`), else any
    /// order for an Adventure Lab (every page a Lab stage) that does not call itself sequential or linear, else
    /// the file's order, as a multi-cache or a series is walked (docs/QUEST.md "A course from a geocaching GPX").
    func courseOrder(_ stages: [Stage]) -> (order: QuestOrder, course: String) {
        if let order {
            return (
                order, order == .any ? "# in any order (--any-order)" : "# each waiting for the one before (--in-order)"
            )
        }
        let lab = !stages.isEmpty && stages.allSatisfy { $0.waypoint.isLabStage }
        guard lab else { return (.sequence, "# each waiting for the one before, in the file's order") }
        let sequential = stages.contains { stage in
            [stage.waypoint.shortDescription, stage.waypoint.longDescription].contains { text in
                text.map { $0.lowercased().split { !$0.isLetter }.contains { $0 == "sequential" || $0 == "linear" } }
                    ?? false
            }
        }
        return sequential
            ? (.sequence, "# each waiting for the one before: the Adventure Lab says it is sequential")
            : (.any, "# in any order, as an Adventure Lab is played unless it says it is sequential")
    }

    /// The quest text and what it left out. An empty course (no waypoint with a point) has no message; its text
    /// does not parse, and the notes say why.
    package func quest() -> (text: String, notes: [Note]) {
        var notes = readerNotes
        var seen: [String: Int] = [:]
        // Each cache's pages (issue 58): its own, then its stages in file order, its Final last, with its points
        // (parking, trailhead) on the first. Every look-up by code is a dictionary's, so the course grows linearly
        // with the file (issue 61): the cache of each code and of each code after its two-letter prefix.
        var units: [Unit] = []
        var unitOfCode: [String: Int] = [:]
        var unitOfSuffix: [String: Int] = [:]
        var points: [(line: String, cache: String?, suffix: String?)] = []
        // The cache of each cache extension's id: the first waypoint with it, or one whose code begins the first's
        // (`TC99UN` of `TC99UN1`); the others with that id and another code are the cache's own waypoints.
        var caches: [String: String] = [:]
        for waypoint in waypoints where waypoint.additionalType == nil {
            guard let id = waypoint.cacheID else { continue }
            if let first = caches[id], !(first.hasPrefix(waypoint.code) && first != waypoint.code) { continue }
            caches[id] = waypoint.code
        }
        for waypoint in waypoints {
            var cache: String?
            if waypoint.additionalType == nil, let id = waypoint.cacheID, let code = caches[id], code != waypoint.code {
                cache = code
            }
            let kind = waypoint.additionalType.map { "\(waypoint.code) (\($0))" } ?? waypoint.code
            guard let coordinate = waypoint.coordinate else {
                notes.append(
                    Note(
                        line: waypoint.line,
                        "\(kind) has no usable coordinates (\(waypoint.coordinateProblem ?? "none given")); "
                            + "left out, not guessed"))
                continue
            }
            let suffix = Self.suffix(waypoint.code)
            if let type = waypoint.additionalType, !Self.stageTypes.contains(type.lowercased()) {
                let about = [waypoint.description, waypoint.comment].compactMap { $0.map(GeocacheText.oneLine) }
                    .filter { !$0.isEmpty && $0 != type }
                let line =
                    "\(type): " + Self.format(coordinate)
                    + (about.isEmpty ? "" : " (" + about.joined(separator: "; ") + ")")
                // A point belongs to its cache's first page: the code after its two-letter prefix is the cache's
                // after "GC".
                points.append((line, nil, suffix))
                continue
            }
            if let cache, !Self.isStage(waypoint.title) {
                // The cache's own waypoint that is not a stage: a point of the cache's page, labelled by its name.
                let label = GeocacheText.oneLine(waypoint.title)
                var about: [String] = []
                for text in [
                    waypoint.longDescription, waypoint.shortDescription, waypoint.description, waypoint.comment,
                ] {
                    guard let line = text.map(GeocacheText.oneLine), !line.isEmpty, line != label, !about.contains(line)
                    else { continue }
                    about.append(line)
                }
                let line =
                    "\(label): " + Self.format(coordinate)
                    + (about.isEmpty ? "" : " (" + about.joined(separator: "; ") + ")")
                points.append((line, cache, nil))
                continue
            }
            let duplicate = seen[waypoint.code] != nil
            if let first = seen[waypoint.code] {
                notes.append(
                    Note(
                        line: waypoint.line,
                        "\(waypoint.code) again (first on line \(first)); kept as a page of its own"))
            } else {
                seen[waypoint.code] = waypoint.line
            }
            let stage = Stage(waypoint: waypoint, coordinate: coordinate, title: waypoint.title, cache: cache)
            // A stage joins its cache's pages: an additional waypoint by the code after the prefix, a cache's own
            // waypoint by its cache's code; a cache joins the stages that came before it (a waypoint file first).
            let joined: Int?
            if waypoint.additionalType != nil {
                joined = suffix.flatMap { unitOfSuffix[$0] }
            } else if let cache {
                joined = unitOfCode[cache]
            } else if let suffix, let index = unitOfSuffix[suffix], !units[index].hasCache, !duplicate {
                joined = index
            } else {
                joined = nil
            }
            let isCache = waypoint.additionalType == nil && cache == nil
            if let joined {
                units[joined].stages.append(stage)
                units[joined].hasCache = units[joined].hasCache || isCache
            } else {
                units.append(Unit(stages: [stage], hasCache: isCache))
            }
            let index = joined ?? units.count - 1
            if unitOfCode[waypoint.code] == nil { unitOfCode[waypoint.code] = index }
            if let suffix, unitOfSuffix[suffix] == nil { unitOfSuffix[suffix] = index }
        }
        var unclaimed: [String] = []
        for point in points {
            if let index = point.cache.flatMap({ unitOfCode[$0] }) ?? point.suffix.flatMap({ unitOfSuffix[$0] }) {
                units[index].points.append(point.line)
            } else {
                unclaimed.append(point.line)
            }
        }
        var stages: [Stage] = []
        for unit in units {
            var ordered = unit.stages.enumerated().sorted {
                (Self.rank($0.element), $0.offset) < (Self.rank($1.element), $1.offset)
            }.map(\.element)
            ordered[0].points = unit.points
            stages += ordered
        }
        // Points whose cache is not in the file go to the first page, where a reader can use them.
        if !unclaimed.isEmpty, !stages.isEmpty { stages[0].points += unclaimed }
        Self.name(&stages)
        // A Lab's stages repeat their project's name before or after their own: said once, in the title.
        let labStages = stages.indices.filter {
            stages[$0].waypoint.isLabStage && stages[$0].waypoint.additionalType == nil
        }
        let project = Self.withoutProject(labStages.map { stages[$0].title })
        if let project {
            for (index, title) in zip(labStages, project.names) { stages[index].title = title }
        }
        let order = courseOrder(stages)
        var lines = [
            "# A course from \(GeocacheText.oneLine(fileName)) (docs/QUEST.md \"A course from a geocaching GPX\"): "
                + "each cache or stage a page that opens at its point, sealed within \(Self.format(radius: radius)),",
            order.course + ". Add answers, points, costs and a start, then compose it.",
            "order: \(order.order.rawValue)",
        ]
        guard !stages.isEmpty else {
            notes.append(Note(line: 1, "no cache or waypoint with coordinates; the course has no page"))
            return (lines.joined(separator: "\n") + "\n", notes)
        }
        let chunks = stride(from: 0, to: stages.count, by: Message.maximumPages).map {
            Array(stages[$0..<min($0 + Message.maximumPages, stages.count)])
        }
        if chunks.count > 1 {
            lines.append(
                "# \(stages.count) pages: \(chunks.count) messages of at most \(Message.maximumPages) pages"
                    + (order.order == .sequence
                        ? ", each message's first page waiting for the last page of the message before." : "."))
        }
        let base = messageName
        let names = chunks.count == 1 ? [base] : chunks.indices.map { "\(base)-\($0 + 1)" }
        // A file of one cache is titled by it, not by the file's own name ("Cache listing generated from …").
        let title =
            units.count == 1
            ? units[0].stages.first.map { GeocacheText.oneLine($0.waypoint.title) } ?? baseName
            : project.map { GeocacheText.oneLine($0.project) }
                ?? (GeocacheText.oneLine(name ?? "").isEmpty
                    ? GeocacheText.oneLine(baseName) : GeocacheText.oneLine(name!))
        for (index, chunk) in chunks.enumerated() {
            let suffix = chunks.count == 1 ? "" : " (\(index + 1) of \(chunks.count))"
            lines += [
                "", "message: \(names[index])",
                "title: " + GeocacheText.truncated(title, to: Message.maximumTitleLength - suffix.unicodeScalars.count)
                    + suffix,
            ]
            for (position, stage) in chunk.enumerated() {
                // Within a message `order: sequence` chains the pages; across messages the first page says it.
                let after =
                    order.order == .sequence && position == 0 && index > 0
                    ? "\(names[index - 1])#\(Message.maximumPages)" : nil
                lines += page(stage, after: after, notes: &notes)
            }
        }
        return (lines.joined(separator: "\n") + "\n", notes)
    }

    /// The file's name without its directory and extension.
    var baseName: String {
        let last = fileName.split(separator: "/").last.map(String.init) ?? fileName
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return last }
        return String(last[..<dot])
    }

    /// The base name as a message name: letters, digits, `-` and `_`.
    var messageName: String {
        let name = String(baseName.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" }.prefix(60))
        return name.allSatisfy { $0 == "-" } ? "course" : name
    }

    static func format(_ coordinate: Coordinate) -> String {
        String(printf: "%.6f,%.6f", coordinate.latitude, coordinate.longitude)
    }

    static func format(radius: Double) -> String {
        radius == radius.rounded() ? "\(Int(radius))m" : String(printf: "%.1fm", radius)
    }
}
