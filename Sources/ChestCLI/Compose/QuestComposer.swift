import ChestArguments
import ChestCore
import ChestIO
import FoundationEssentials

/// `compose --quest QUEST -o DIR|FILE [--keep-ids]`, as the command line gave it.
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
    /// --radius: the radius of every place when QUEST is a geocaching GPX.
    var radius: Double?

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
        radius = try QuestFile.radius(values)
    }
}

/// Builds a quest's messages with compose's own path (`Composer`), one file each, and records their IDs.
struct QuestComposer {
    let settings: Settings
    let options: QuestOptions

    func compose() throws {
        let file = try QuestFile(options.path, radius: options.radius)
        let ids = file.ids(keep: options.keepIDs)
        let drafts = file.quest.drafts(ids: ids)
        let outputs = try outputPaths(drafts)
        // All or nothing: compose would refuse an existing file only once the files before it are written.
        if !options.force, let existing = outputs.first(where: { FileManager.default.fileExists(atPath: $0) }) {
            throw ChestError("\(existing) exists; choose another -o, or overwrite with --force")
        }
        // One composer for the whole quest: places in one search area share its grid, so a reader derives a
        // cell's key once for all of them (docs/FORMAT.md "Format 3").
        let composer = Composer(settings: settings)
        for (draft, output) in zip(drafts, outputs) {
            var compose = ComposeDraft(draft, output: output)
            compose.format = options.format
            compose.sealCost = options.sealCost
            compose.hunt = options.hunt
            compose.searchArea = draft.searchArea ?? options.searchArea
            try composer.compose(compose)
        }
        try file.record(ids)
    }

    /// `DIR/NAME.locked` for each message, or the one FILE of a one-message quest.
    private func outputPaths(_ drafts: [QuestDraft]) throws -> [String] {
        var isDirectory = false
        let exists = FileManager.default.fileExists(atPath: options.output, isDirectory: &isDirectory)
        if options.output.hasSuffix("." + MessageFile.fileExtension) && !isDirectory {
            guard drafts.count == 1 else {
                throw ChestError("the quest has \(drafts.count) messages; give -o a directory, not \(options.output)")
            }
            return [options.output]
        }
        if !exists {
            do {
                try FileManager.default.createDirectory(atPath: options.output, withIntermediateDirectories: true)
            } catch {
                throw ChestError("cannot create the directory \(options.output)")
            }
        } else if !isDirectory {
            throw ChestError("\(options.output) is a file; give -o a directory, or FILE.locked for a one-message quest")
        }
        return drafts.map { options.output + "/" + $0.name + "." + MessageFile.fileExtension }
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
                    points: $0.points, hints: $0.hints)
            })
    }
}
