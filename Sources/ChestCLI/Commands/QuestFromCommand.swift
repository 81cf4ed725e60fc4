import ChestArguments
import ChestCore
import ChestIO
import FoundationEssentials
import Glibc

/// `chest quest from FILE.gpx`: a geocaching GPX as an editable quest file (docs/QUEST.md "A course from a
/// geocaching GPX").
struct QuestFromCommand: ChestCommand {
    static let name = "from"
    static let abstract = "write a geocaching GPX's caches and stages as a quest file to edit"
    static let synopses = ["FILE.gpx [-o QUEST] [--radius DISTANCE] [--in-order|--any-order] [--force]"]
    static let discussion = """
        Each cache or stage with coordinates becomes a page that opens at them (a sealed place, 30 m unless \
        --radius says otherwise), in the file's order, a multi-cache's stages after it and its Final last. The \
        quest's order: line says whether each page waits for the one before (sequence: a multi-cache, a series; \
        an Adventure Lab that says it is sequential) or opens when reached (any: an Adventure Lab's default); \
        --in-order and --any-order choose. Five pages a message, in sequence the next message's first page \
        waiting for the last page of the one before. The page's text is the cache's name and its descriptions as \
        plain text, its hint the cache's hint, and a "Question:" line its question (of several languages, the \
        one --lang or the locale names); a comment above each page keeps the cache's code and owner, and a \
        waypoint: line its name and type for export. Parking and trailhead go into their cache's first page; \
        waypoints without coordinates are reported, not guessed. A GPX with no waypoint but a route or track \
        (from an outdoor app) gives a page for each of its named points. Add answers, points, costs or a \
        start, then chest compose --quest QUEST. Nothing is written when the file is not a GPX.
        """
    static let parameters: [Parameter] =
        [
            .positional(
                "GPX", help: "a geocaching GPX (GPX 1.0 or 1.1, with or without groundspeak extensions), or a route",
                completion: .files(extension: "gpx")),
            .option(
                "--output", "-o", value: "QUEST", help: "the quest file to write (default: standard output)",
                completion: .files()),
            .option(
                "--radius", value: "DISTANCE", help: "the radius of every place, such as 30m (the default) or 0.1km"),
            .flag("--force", help: "replace QUEST when it exists"),
        ] + CourseOptions.gpxParameters

    var path: String
    var output: String?
    var course: CourseOptions
    var force: Bool

    init(_ values: ParsedValues) throws(UsageError) {
        path = values.positional("GPX")[0]
        output = values.value("--output")
        force = values.flag("--force")
        course = try CourseOptions(values)
    }

    /// `30m`, `0.1km` or `30` (metres), at least `Lock.minimumRadius`.
    static func metres(_ text: String) -> Double? {
        let lower = text.lowercased()
        let (number, scale) =
            lower.hasSuffix("km")
            ? (lower.dropLast(2), 1000.0)
            : lower.hasSuffix("m")
                ? (lower.dropLast(), 1.0)
                : (Substring(lower), 1.0)
        guard let value = Double(number).map({ $0 * scale }), value.isFinite, value >= Lock.minimumRadius else {
            return nil
        }
        return value
    }

    func run(settings: Settings) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ChestError("cannot read \(path): \(QuestFile.whyUnreadable(path))")
        }
        let text = try QuestFile.geocacheQuest(data, path: path, course: course)
        let file = try OutputFile(
            checking: output ?? "-", force: force, otherwise: "give --force to replace it, or another name with -o")
        // Checked as compose will read it before anything is written (docs/QUEST.md "Errors"): the course names no
        // file, so the parser is given none.
        let parser = QuestParser(
            timeZone: .current, pageText: { _ in throw ChestError("no file") },
            waypoint: { _, _ in throw ChestError("no file") })
        let quest: Quest
        do {
            quest = try parser.parse(text)
        } catch {
            throw ChestError(error.lines(prefix: "\(path) as a quest:").joined(separator: "\nchest: "))
        }
        try file.write(checked: Data(text.utf8))
        let pages = quest.messages.reduce(0) { $0 + $1.pages.count }
        printError(
            "chest: \(pages) page\(pages == 1 ? "" : "s") in \(quest.messages.count) message\(quest.messages.count == 1 ? "" : "s"); "
                + "pages in \((quest.order ?? .any).wording)")
    }
}
