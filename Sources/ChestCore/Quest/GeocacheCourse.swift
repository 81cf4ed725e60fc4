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

    /// Additional waypoint types that are a place to go to with something to find: a page each. The others
    /// (parking, trailhead) are points, written into their cache's first page.
    static let stageTypes: Set<String> = [
        "stages of a multicache", "physical stage", "virtual stage", "question to answer", "reference point",
        "final location",
    ]

    /// The types of a cache's last page.
    static let finalTypes: Set<String> = ["final location"]

    /// The words of those types that make a cache's own waypoint with no type (TerraCaching's "Stage Two") a page when
    /// its name holds one; the others ("Parking and Trailhead", "Trail Junction") are points.
    static let stageWords: Set<String> = ["stage", "stages", "final", "question"]

    /// The labels of a Lab stage's question line; the task labels count only for a Lab stage with no question line.
    static let questionLabels = [
        "question", "frage", "vraag", "question posée", "otázka", "pregunta", "domanda", "pytanie", "fråga",
        "spørgsmål", "spørsmål", "kysymys",
    ]
    static let taskLabels = [
        "task", "aufgabe", "úkol", "mission", "opgave", "uppgift", "tâche", "zadanie", "tarea", "compito",
    ]

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

    /// One page of the course before it is written.
    struct Stage {
        var waypoint: GeocacheWaypoint
        var coordinate: Coordinate
        /// Its page's title: the waypoint's, without the Lab project's name its stages all repeat.
        var title: String
        /// What the file calls it: its code, a Lab stage's name without its project's (`waypoint:`).
        var name = ""
        var points: [String] = []
        /// The code of the cache whose waypoint this is, for a cache's own waypoint (`cacheID`) with a code of its own.
        var cache: String?
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

    /// A page's lines: its comment, text, question, locks and hint.
    func page(_ stage: Stage, after: String?, notes: inout [Note]) -> [String] {
        let waypoint = stage.waypoint
        var about = [waypoint.additionalType ?? waypoint.cacheType].compactMap { $0 }
        if let cache = stage.cache { about.append("a waypoint of \(GeocacheText.oneLine(cache))") }
        if let owner = waypoint.owner.map(GeocacheText.oneLine), !owner.isEmpty { about.insert("by \(owner)", at: 0) }
        var lines = [
            "",
            "# \(GeocacheText.oneLine(waypoint.code))" + (about.isEmpty ? "" : " " + about.joined(separator: ", "))
                + ", line \(waypoint.line) of \(GeocacheText.oneLine(fileName))",
        ]
        var text = [GeocacheText.truncated(stage.title, to: 1_000)]
        let descriptions = [waypoint.shortDescription, waypoint.longDescription].compactMap { $0 }
        let body =
            descriptions.isEmpty && waypoint.cacheName == nil
            ? [waypoint.comment, waypoint.additionalType == nil ? waypoint.description : nil].compactMap { $0 }
            : descriptions
        for part in body {
            let partLines = GeocacheText.lines(part)
            if !partLines.isEmpty { text += [""] + partLines }
        }
        if !stage.points.isEmpty { text += [""] + stage.points }
        var joined = text.joined(separator: "\n")
        if let problem = Message.pageLengthProblem(joined) {
            notes.append(
                Note(
                    line: waypoint.line, "\(waypoint.code): \(problem); cut to \(Message.maximumPageLength) characters")
            )
            joined = GeocacheText.truncated(joined, to: Message.maximumPageLength)
        }
        let textLines = joined.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let first = textLines.first, !first.isEmpty, !first.hasPrefix("@") {
            lines.append("page: " + first)
            lines += textLines.dropFirst().map { $0.isEmpty ? "|" : "| " + $0 }
        } else {
            lines.append("page:")
            lines += textLines.map { $0.isEmpty ? "|" : "| " + $0 }
        }
        let type = [waypoint.type].compactMap { $0 }.first { $0.contains("|") }.map(GeocacheText.oneLine)
        lines.append("  waypoint: " + QuestWaypoint(name: stage.name, type: type).written)
        if let question = question(of: waypoint) {
            lines.append("  question: " + GeocacheText.truncated(question, to: Page.maximumQuestionLength))
        }
        lines.append("  lock: location=\(Self.format(stage.coordinate))/\(Self.format(radius: radius))")
        if let after { lines.append("  lock: after=\(after)") }
        if let hint = waypoint.hints.map(GeocacheText.oneLine), !hint.isEmpty {
            lines.append("  hint: " + GeocacheText.truncated(hint, to: Page.maximumHintLength))
        }
        return lines
    }

    /// The description's question line ("Question: …", "Frage: …"), or for a Lab stage its task line; of several,
    /// the one in `language`, else the first.
    func question(of waypoint: GeocacheWaypoint) -> String? {
        let lines = [waypoint.longDescription, waypoint.shortDescription, waypoint.comment, waypoint.description]
            .compactMap { $0 }.flatMap(GeocacheText.lines)
        let preferred = language.flatMap { Self.labelsOfLanguage[$0.lowercased()] } ?? []
        func find(_ labels: [String]) -> String? {
            var first: String?
            for line in lines {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let label = line[..<colon].trimmingSpaces().lowercased()
                let rest = GeocacheText.oneLine(String(line[line.index(after: colon)...]))
                guard labels.contains(label), !rest.isEmpty else { continue }
                if preferred.contains(label) { return rest }
                if first == nil { first = rest }
            }
            return first
        }
        return find(Self.questionLabels) ?? (waypoint.isLabStage ? find(Self.taskLabels) : nil)
    }

    /// The question and task labels of each language `--lang` names.
    static let labelsOfLanguage: [String: Set<String>] = [
        "en": ["question", "task"], "de": ["frage", "aufgabe"], "nl": ["vraag"],
        "fr": ["question posée", "tâche", "mission"],
        "cs": ["otázka", "úkol"], "es": ["pregunta", "tarea"], "it": ["domanda", "compito"],
        "pl": ["pytanie", "zadanie"],
        "sv": ["fråga", "uppgift"], "da": ["spørgsmål", "opgave"], "nb": ["spørsmål"], "no": ["spørsmål"],
        "fi": ["kysymys"],
    ]

    /// How many characters of a name GPS receivers show: the names `waypoint:` keeps differ in them.
    static let distinctNameLength = 14

    /// Each stage's name as the file gives it (its code; a Lab stage's without the project's name its stages all
    /// repeat), made to differ from the others' in their first 14 characters where they did not, by a number in place
    /// of its end ("Stage of the o~2").
    static func name(_ stages: inout [Stage]) {
        var names = stages.map {
            GeocacheText.truncated(GeocacheText.oneLine($0.waypoint.code), to: QuestWaypoint.maximumNameLength)
        }
        let labs = stages.indices.filter { stages[$0].waypoint.isLabStage && stages[$0].waypoint.additionalType == nil }
        if let project = withoutProject(labs.map { names[$0] }) {
            for (index, name) in zip(labs, project.names) { names[index] = name }
        }
        var taken: Set<String> = []
        for index in names.indices {
            var name = names[index].isEmpty ? "\(index + 1)" : names[index]
            var number = 1
            while !taken.insert(String(name.prefix(distinctNameLength))).inserted {
                number += 1
                let mark = "~\(number)"
                name = String(names[index].prefix(distinctNameLength - mark.count)) + mark
            }
            stages[index].name = name
        }
    }

    /// The separators between a Lab project's name and its stage's in a stage's name.
    static let projectSeparators = [" / ", " - ", " – ", " | ", ": ", "_"]

    /// The project name that the names of a Lab's stages (two or more) all share before or after their own, at a
    /// separator ("Starý Prostějov - Wichterle a Kovářík a.s. (WIKOV) / První Wichterlova továrna - WI", or
    /// "01_Munich Olympic Walk Of Stars_Updated-Project MUNICH2014"), and each name without it; nil when they share
    /// none or one would be left empty.
    static func withoutProject(_ names: [String]) -> (project: String, names: [String])? {
        guard names.count >= 2 else { return nil }
        let characters = names.map(Array.init)
        var prefix = characters[0].count
        var suffix = characters[0].count
        for name in characters.dropFirst() {
            prefix = min(prefix, zip(characters[0], name).prefix { $0 == $1 }.count)
            suffix = min(suffix, zip(characters[0].reversed(), name.reversed()).prefix { $0 == $1 }.count)
        }
        func result(_ project: String, _ cut: (([Character]) -> String)) -> (project: String, names: [String])? {
            let rests = characters.map { cut($0).trimmingSpaces() }
            let project = project.trimmingSpaces()
            guard !project.isEmpty, rests.allSatisfy({ !$0.isEmpty }) else { return nil }
            return (project, rests)
        }
        let shared = String(characters[0].prefix(prefix))
        if let end = projectSeparators.flatMap({ shared.ranges(of: $0) }).max(by: { $0.upperBound < $1.upperBound }),
            let found = result(
                String(shared[..<end.lowerBound]),
                {
                    String($0.dropFirst(shared[..<end.upperBound].count))
                })
        {
            return found
        }
        let ending = String(characters[0].suffix(suffix))
        if let start = projectSeparators.flatMap({ ending.ranges(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound }) {
            let dropped = ending[start.lowerBound...].count
            return result(String(ending[start.upperBound...]), { String($0.dropLast(dropped)) })
        }
        return nil
    }

    /// Whether a cache's own waypoint with no type is a stage by its name: it holds a word of `stageWords`.
    static func isStage(_ name: String) -> Bool {
        name.lowercased().split { !$0.isLetter }.contains { stageWords.contains(String($0)) }
    }

    /// A point's additional waypoint and a cache share the code after their first two letters (`PK1BKP3`, `GC1BKP3`):
    /// that part of a code longer than two letters.
    static func suffix(_ code: String) -> String? { code.count > 2 ? String(code.dropFirst(2)) : nil }

    /// The pages of one cache: its own first, its stages in file order, its Final last; its points go on the first.
    struct Unit {
        var stages: [Stage]
        var hasCache: Bool
        var points: [String] = []
    }

    /// Where a page goes among its cache's: the cache itself, a stage, a Final (by its type, or by its name for a
    /// cache's own waypoint).
    static func rank(_ stage: Stage) -> Int {
        let waypoint = stage.waypoint
        if let type = waypoint.additionalType?.lowercased() { return finalTypes.contains(type) ? 2 : 1 }
        guard stage.cache != nil else { return 0 }
        return waypoint.title.lowercased().split { !$0.isLetter }.contains("final") ? 2 : 1
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
