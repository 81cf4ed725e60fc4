import ChestArguments
import ChestCore
import ChestIO
import FoundationEssentials

/// `compose --quest QUEST -o DIR|FILE [--keep-ids] [--yes]`, as the command line gave it.
struct QuestOptions: Equatable {
    var path: String
    var output: String
    var keepIDs: Bool
    var force: Bool
    /// compose's --format and --seal-cost, for every message of the quest.
    var format: Int
    var sealCost: SealCost.Level?
    /// compose's --hunt: the organiser's hunt file, for release locks.
    var hunt: String?
    /// compose's --search-area, for messages whose quest declares none.
    var searchArea: SearchArea?
    /// --radius, --in-order, --any-order: the course when QUEST is a geocaching GPX.
    var course: CourseOptions
    /// --yes: seal however long it takes, without asking (`SealingEstimate`).
    var yes = false

    init(
        path: String, output: String?, keepIDs: Bool, force: Bool, format: Int, sealCost: SealCost.Level?,
        values: ParsedValues
    ) throws(UsageError) {
        guard let output, output != "-" else {
            throw UsageError("compose --quest needs -o DIR (or -o FILE for a one-message quest)")
        }
        for name in ["--title", "--from", "--page", "--lock", "--or", "--attach", "--question", "--points"]
        where values.occurrences.contains(where: { $0.name == name }) {
            throw UsageError("\(name) does not go with --quest; the quest file says it all")
        }
        self.path = path
        self.output = output
        self.keepIDs = keepIDs
        self.force = force
        self.format = format
        self.sealCost = sealCost
        course = try CourseOptions(values)
        yes = values.flag("--yes")
    }
}

/// Builds a quest's messages with compose's own path (`Composer`), one file each, and records their IDs.
struct QuestComposer {
    let settings: Settings
    let options: QuestOptions

    func compose() throws {
        let file = try QuestFile(options.path, course: options.course)
        let ids = file.ids(keep: options.keepIDs)
        let drafts = file.quest.drafts(ids: ids)
        let (outputs, directory) = try outputPaths(drafts)
        // All or nothing: compose would refuse an existing file only once the files before it are written.
        if !options.force, let existing = outputs.first(where: { FileManager.default.fileExists(atPath: $0) }) {
            throw ChestError("\(existing) exists; choose another -o, or overwrite with --force")
        }
        for line in QuestDraft.orderLines(drafts) { printError("chest: " + line) }
        let composes = drafts.map { composeDraft($0, messages: drafts.count) }
        if let problem = composes.lazy.compactMap(\.finishProblem).first { throw UsageError(problem) }
        if let problem = composes.lazy.compactMap(\.missionProblem).first { throw UsageError(problem) }
        // What sealing will cost, told (and asked) before the first page: hours for a course of 10,000 caches.
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        var estimate = SealingEstimate()
        for compose in composes { estimate.add(compose, cores: cores) }
        try estimate.confirm(messages: drafts.count, cores: cores, yes: options.yes)
        if let directory {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw ChestError("cannot create the directory \(directory)")
            }
        }
        // One composer for the whole quest: places in one search area share its grid, so a reader derives a
        // cell's key once for all of them (docs/FORMAT.md "Format 3").
        let composer = Composer(settings: settings)
        for (var compose, output) in zip(composes, outputs) {
            compose.output = output
            try composer.compose(compose)
        }
        try file.record(ids)
    }

    /// What compose writes for one quest message, before its output is known.
    private func composeDraft(_ draft: QuestDraft, messages questMessages: Int) -> ComposeDraft {
        var compose = ComposeDraft(draft, output: "")
        compose.format = options.format
        compose.sealCost = options.sealCost
        compose.hunt = options.hunt
        compose.quest = ComposeDraft.QuestOrigin(
            file: options.path, message: draft.name, messages: questMessages)
        compose.searchArea = draft.searchArea ?? options.searchArea
        return compose
    }

    /// `DIR/NAME.locked` for each message, or the one FILE of a one-message quest; with DIR when it is still to be
    /// made.
    private func outputPaths(_ drafts: [QuestDraft]) throws -> (paths: [String], directory: String?) {
        var isDirectory = false
        let exists = FileManager.default.fileExists(atPath: options.output, isDirectory: &isDirectory)
        if options.output.hasSuffix("." + MessageFile.fileExtension) && !isDirectory {
            guard drafts.count == 1 else {
                throw ChestError("the quest has \(drafts.count) messages; give -o a directory, not \(options.output)")
            }
            return ([options.output], nil)
        }
        if exists && !isDirectory {
            throw ChestError("\(options.output) is a file; give -o a directory, or FILE.locked for a one-message quest")
        }
        return (
            drafts.map { options.output + "/" + $0.name + "." + MessageFile.fileExtension },
            exists ? nil : options.output
        )
    }
}

extension ComposeDraft {
    /// What compose writes for one quest message.
    init(_ draft: QuestDraft, output: String) {
        self.init(
            id: draft.id, output: output, force: true, title: draft.title, from: draft.from,
            pages: draft.pages.map {
                PageDraft(
                    text: $0.text, setA: $0.setA, setB: $0.setB, attachments: $0.attachments, question: $0.question,
                    points: $0.points, finish: $0.finish, mission: $0.mission, hints: $0.hints, line: $0.line)
            })
    }
}
