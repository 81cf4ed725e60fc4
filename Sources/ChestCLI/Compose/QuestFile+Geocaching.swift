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
    static func geocacheQuest(_ data: Data, path: String, radius: Double?) throws -> String {
        let file: GeocacheFile
        do {
            file = try GeocacheFile(data: data)
        } catch {
            throw ChestError("\(path):\(error.line): \(error.reason)")
        }
        let (text, notes) = file.course(fileName: path, radius: radius ?? GeocacheCourse.defaultRadius).quest()
        if !text.contains("\nmessage: ") {
            throw ChestError(
                "\(path): no cache or waypoint with coordinates, so the course has no page"
                    + notes.map { "\nchest: \(path):\($0)" }.joined())
        }
        for note in notes { printError("chest: warning: \(path):\(note)") }
        return text
    }
}
