import FoundationEssentials

/// One page of a course as quest text: its comment, text, question, locks and hint (docs/QUEST.md "A course from a
/// geocaching GPX").
extension GeocacheCourse {
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

    /// The labels of a Lab stage's question line; the task labels count only for a Lab stage with no question line.
    static let questionLabels = [
        "question", "frage", "vraag", "question posée", "otázka", "pregunta", "domanda", "pytanie", "fråga",
        "spørgsmål", "spørsmål", "kysymys",
    ]
    static let taskLabels = [
        "task", "aufgabe", "úkol", "mission", "opgave", "uppgift", "tâche", "zadanie", "tarea", "compito",
    ]
}
