import ChestArguments
import ChestCore
import ChestIO
import FoundationEssentials
import Glibc

/// `chest demo`: the bundled quest along the bundled walk, for someone with the package and no source tree (README's
/// `make demo` needs one): `chest simulate` of them, through gpsfake, gpsd and a private chestd when gpsfake is
/// installed, in-process otherwise.
struct DemoCommand: ChestCommand {
    static let name = "demo"
    static let abstract = "walk the bundled quest past a simulated receiver and print each page as it opens"
    static let synopses = ["[--in-process] [--examples DIR]"]
    static let discussion = """
        Rehearses the demo quest (hill.quest: two messages, six pages, with a place, a PIN, an altitude, a time, \
        an order and the weather) along the demo walk (walk.txt: about 90 s near Zurich, up a hill, with 10 s \
        under trees without a fix), dated to now, as chest simulate does with --weather snowy,-2: through \
        gpsfake, a private gpsd and a private chestd (its own chest, socket and settings) when gpsfake is \
        installed (Debian: gpsd-tools), else in-process through the same engine. Prints when each page opens and \
        why any did not. Your own chest and chestd are never touched.

        The files are those the package installs in /usr/share/chest/demo (or PREFIX/share/chest/demo of make \
        install; in a source tree, its demo/): read them, then write your own quest (docs/QUEST.md) and rehearse \
        it with chest simulate QUEST TRACK. --examples DIR takes them from DIR instead.

        Exit status 0 when every page opened, 1 otherwise.
        """
    static let parameters: [Parameter] = [
        .flag("--in-process", help: "replay in-process even when gpsfake is installed"),
        .option(
            "--examples", value: "DIR", help: "where hill.quest and walk.txt are (default: the installed ones)",
            completion: .directories),
    ]

    var inProcess: Bool
    var examples: String?

    init(_ values: ParsedValues) throws(UsageError) {
        inProcess = values.flag("--in-process")
        examples = values.value("--examples")
    }

    /// The demo's quest and walk.
    struct Files: Equatable {
        var quest: String
        var walk: String

        /// hill.quest and walk.txt in one directory, as installed; or the source's demo/ (demo/quest/hill.quest).
        static func inside(_ directory: String) -> [Files] {
            [
                Files(quest: directory + "/hill.quest", walk: directory + "/walk.txt"),
                Files(quest: directory + "/quest/hill.quest", walk: directory + "/walk.txt"),
            ]
        }

        var exist: Bool {
            FileManager.default.fileExists(atPath: quest) && FileManager.default.fileExists(atPath: walk)
        }
    }

    /// Where the files are looked for, in order, for the program at `executable` (its real path):
    /// PREFIX/share/chest/demo beside PREFIX/bin, /usr/share/chest/demo, then the source tree's demo/ of a build in
    /// SOURCE/.build/TRIPLE/CONFIGURATION or SOURCE/.build/CONFIGURATION.
    static func candidates(executable: String) -> [Files] {
        let bin = String(executable[..<(executable.lastIndex(of: "/") ?? executable.startIndex)])
        return [bin + "/../share/chest/demo", "/usr/share/chest/demo", bin + "/../../../demo", bin + "/../../demo"]
            .flatMap(Files.inside)
    }

    /// The demo's files: in `given` when given, else where `candidates` finds them first.
    static func files(_ given: String?) throws -> Files {
        if let given {
            guard let found = Files.inside(given).first(where: \.exist) else {
                throw ChestError("\(given) holds no hill.quest and walk.txt of the demo")
            }
            return found
        }
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: HelperProcess.ownExecutable))
            ?? HelperProcess.ownExecutable
        let candidates = candidates(executable: executable)
        guard let found = candidates.first(where: \.exist) else {
            let places = Set(candidates.map { Self.standardized($0.walk) }).sorted().map { String($0.dropLast(9)) }
            throw ChestError(
                "the demo's hill.quest and walk.txt are not installed beside this chest (looked in \(places.joined(separator: ", "))): give their directory with --examples DIR"
            )
        }
        return Files(quest: standardized(found.quest), walk: standardized(found.walk))
    }

    /// The path without its `..`.
    static func standardized(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }

    func run(settings _: Settings) throws {
        let files = try Self.files(examples)
        let throughGPSD = !inProcess && SearchPath.find("gpsfake") != nil
        let scratch: String
        do { scratch = try Directory.makeTemporary("chest-demo") } catch {
            throw ChestError("cannot make a temporary directory: \(error)")
        }
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        // The walk dated to now, as make demo's: a receiver's fixes of today, which chestd's clock believes.
        let walk = try String(contentsOfFile: files.walk, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("start ") ? "start " + ISO8601.string(Date()) : String($0) }
            .joined(separator: "\n")
        try Data(walk.utf8).write(to: URL(fileURLWithPath: scratch + "/walk.txt"))
        print(
            "== The demo quest \(files.quest) along the walk \(files.walk), dated now, "
                + (throughGPSD
                    ? "through gpsfake, a private gpsd and a private chestd"
                    : inProcess ? "in-process" : "in-process (gpsfake is not installed: Debian's gpsd-tools has it)")
                + "; your own chest and chestd are not touched.")
        let invocation = try ArgumentParser.parse(
            ["simulate", files.quest, scratch + "/walk.txt", "--weather", "snowy,-2"]
                + (throughGPSD ? ["--gpsd"] : []), root: Chest.self)
        // The organiser who seals the quest is the demo's own, in the scratch directory, not the user's identity.
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = scratch + "/organiser"
        try SimulateCommand(invocation.path[1]).run(settings: try Settings(environment: environment))
    }
}
