import ChestArguments
import ChestCore
import ChestGPX
import ChestIO
import FoundationEssentials

/// A geocaching GPX taken where a quest is (docs/QUEST.md "A course from a geocaching GPX").
extension QuestFile {
    /// Whether the file at `path` is a GPX rather than a quest text: its name ends in `.gpx`, or it starts as one.
    static func isGPX(_ path: String, data: Data) -> Bool {
        path.lowercased().hasSuffix(".gpx") || GeocacheFile.looksLikeGPX(data)
    }

    /// `--radius DISTANCE` of preview, simulate and compose --quest: the radius of every place of a geocaching GPX.
    static let radiusOption = Parameter.option(
        "--radius", value: "DISTANCE",
        help: "with a geocaching GPX: the radius of every place, such as 50m (default 30m)")

    /// The `--radius` given, nil without one; a usage error for anything but a distance of 10 m or more.
    static func radius(_ values: ParsedValues) throws(UsageError) -> Double? {
        try values.value(
            "--radius", "--radius is a distance of 10 m or more, such as 30m or 0.1km", QuestFromCommand.metres)
    }

    /// The quest text of a GPX of caches, after reporting on standard error what it leaves out (with the GPX's
    /// lines). A file that is not a GPX, or has no point to go to, is an error naming its line.
    static func geocacheQuest(_ data: Data, path: String, course options: CourseOptions) throws -> String {
        let file: GeocacheFile
        do {
            file = try GeocacheFile(data: data)
        } catch {
            throw ChestError("\(path):\(error.line): \(error.reason)")
        }
        var course = file.course(fileName: path, radius: options.radius ?? GeocacheCourse.defaultRadius)
        course.order = options.order
        course.language = options.language
        let (text, notes) = course.quest()
        if !text.contains("\nmessage: ") {
            throw ChestError(
                "\(path): no cache or waypoint with coordinates, so the course has no page"
                    + notes.map { "\nchest: \(path):\($0)" }.joined())
        }
        for note in notes { printError("chest: warning: \(path):\(note)") }
        return text
    }
}

/// What `preview`, `simulate`, `compose --quest` and `quest from` take for a geocaching GPX (docs/QUEST.md "A course
/// from a geocaching GPX"): the radius of its places and the order of its pages.
struct CourseOptions: Equatable {
    /// `--radius`; nil for the default.
    var radius: Double?
    /// `--in-order` or `--any-order`; nil lets the file say.
    var order: QuestOrder?
    /// `--lang`, else the locale's language (`LC_ALL`, `LC_MESSAGES`, `LANG`): which question line a stage asks.
    var language: String?
    /// Whether `--lang` was given (the locale's language is no option to refuse for a quest file).
    var languageGiven = false

    init(radius: Double? = nil, order: QuestOrder? = nil) {
        self.radius = radius
        self.order = order
        language = Self.localeLanguage()
    }

    /// The language of the locale: "de" of `de_CH.UTF-8`; nil for `C` and `POSIX`.
    static func localeLanguage() -> String? {
        let environment = ProcessInfo.processInfo.environment
        guard
            let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap({ environment[$0] }).first(where: {
                !$0.isEmpty
            })
        else { return nil }
        let language = String(locale.prefix { $0.isLetter }).lowercased()
        return language.isEmpty || language == "c" || language == "posix" ? nil : language
    }

    /// `--in-order`, `--any-order` and `--lang`; `--radius` (`QuestFile.radiusOption`) is declared apart, for its own
    /// wording on `quest from`.
    static let gpxParameters: [Parameter] = [
        .flag("--in-order", help: "with a geocaching GPX: each page waits for the one before (order: sequence)"),
        .flag(
            "--any-order",
            help: "with a geocaching GPX: each page opens when reached (order: any; an Adventure Lab's default)"),
        .option(
            "--lang", value: "LANGUAGE",
            help:
                "with a geocaching GPX: where a stage has a question line in several languages, ask the one in LANGUAGE (de, en, cs…; default: the locale's)"
        ),
    ]

    static let parameters = [QuestFile.radiusOption] + gpxParameters

    init(_ values: ParsedValues) throws(UsageError) {
        radius = try QuestFile.radius(values)
        switch (values.flag("--in-order"), values.flag("--any-order")) {
        case (true, true): throw UsageError("--in-order and --any-order go one at a time")
        case (true, false): order = .sequence
        case (false, true): order = .any
        case (false, false): order = nil
        }
        if let given = values.value("--lang") {
            guard given.count >= 2, given.count <= 3, given.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                throw UsageError("--lang is a language code such as de, en or cs, not \"\(given)\"")
            }
            language = given.lowercased()
            languageGiven = true
        } else {
            language = Self.localeLanguage()
        }
    }

    /// Given any of them: they set a GPX's course, not a quest file's.
    var isEmpty: Bool { radius == nil && order == nil && !languageGiven }

    /// The options as they were written, for an error.
    var written: String {
        [
            radius.map { _ in "--radius" }, order.map { $0 == .any ? "--any-order" : "--in-order" },
            languageGiven ? "--lang" : nil,
        ].compactMap { $0 }.joined(separator: " and ")
    }
}
