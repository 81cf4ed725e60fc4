import ChestArguments
import ChestCore
import ChestIO
import ChestSeal
import FoundationEssentials

/// `chest compose`: the options are read in order, because each `--lock` belongs to the page and set before it.
struct ComposeCommand: ChestCommand, Equatable {
    static let name = "compose"
    static let abstract = "write a locked message file; prints its ID"
    static let synopses = [
        "-o FILE [--force] --title TITLE [--from NAME] --page TEXT [--attach FILE]... [--lock SPEC]... [--or --lock SPEC...] ...",
        "--quest QUEST -o DIR|FILE [--keep-ids] [--force] [--yes] [--hunt FILE] [--format N] [--seal-cost LEVEL] [--search-area LAT,LON/RADIUSkm] [--radius DISTANCE] [--in-order|--any-order] [--lang LANGUAGE]",
    ]
    static let parameters: [Parameter] = [
        .option(
            "--output", "-o", value: "FILE", help: "the message file to write; - for standard output",
            completion: .files(extension: "locked")),
        .flag("--force", help: "overwrite FILE if it exists"),
        .option("--title", value: "TITLE", help: "the message's title"),
        .option("--from", value: "NAME", help: "the sender's name (default: the name setting)"),
        .option(
            "--page", value: "TEXT",
            help: "starts the next page, with this text (@FILE reads a file, - standard input)",
            repeatable: true),
        .option(
            "--attach", value: "FILE",
            help:
                "attaches a file (a PNG, JPEG or WebP picture, or any file) to the page before it; 8 MiB a message in all",
            repeatable: true, completion: .files()),
        .option(
            "--lock", value: "SPEC", help: "adds a lock to the page's current set", repeatable: true,
            completion: .keyValue(
                keys: LockKind.allCases.map(\.rawValue),
                values: ["location": ["here/30m"], "weather": WeatherCondition.allCases.map(\.rawValue)])),
        .flag("--or", help: "switches the page to set B", repeatable: true),
        .option(
            "--hint", value: "TEXT",
            help: "adds a hint to the page before it, sealed under a key of its own; repeatable, in order",
            repeatable: true),
        .option(
            "--hint-after", value: "DURATION",
            help:
                "the hint before it opens by itself (with --hunt: the board gives it free) this long (90s, 10m, 1h30m) after its page became the reader's next goal",
            repeatable: true),
        .option(
            "--hint-cost", value: "POINTS",
            help: "with --hunt: what the board charges for giving the hint before it (default 0)",
            repeatable: true),
        .option(
            "--question", value: "TEXT",
            help: "the page before it asks this question, shown before it opens (see answer= locks)",
            repeatable: true),
        .option(
            "--points", value: "N", help: "what the hunt's board credits for the page before it, 0 to 1000 (default 1)",
            repeatable: true),
        .flag(
            "--finish", help: "the page before it is the hunt's finish: its credited receipt stops the team's clock",
            repeatable: true),
        .flag(
            "--mission",
            help:
                "with --hunt: the page before it is a mission: the organiser judges the photo or text a team submits (chest hunt submit) and gives at most its --points",
            repeatable: true),
        .option(
            "--quest", value: "QUEST", help: "builds every message of a quest file (docs/QUEST.md)",
            completion: .files()),
        .flag("--keep-ids", help: "with --quest: reuse the IDs recorded in QUEST.ids"),
        .flag(
            "--yes",
            help:
                "with --quest: seal without asking when sealing takes more than \(Int(SealingEstimate.askAbove / 60)) minutes"
        ),
        QuestFile.radiusOption,
        CourseOptions.gpxParameters[0],
        CourseOptions.gpxParameters[1],
        CourseOptions.gpxParameters[2],
        .option(
            "--format", value: "N",
            help:
                "the file format: 5 (sealed pages, the default; written as 3 unless a set holds a PIN or an answer), 4 (PINs in one lane), 3 (and a place with a PIN on coarser cells), 2 (its places can be recovered from the file) or 1 (text in the clear)",
            completion: .words(["1", "2", "3", "4", "5"])),
        .option(
            "--seal-cost", value: "LEVEL",
            help:
                "Argon2id cost of every guess: interactive, moderate or sensitive (default: chosen per secret, docs/SECURITY.md)",
            completion: .words(SealCost.Level.allCases.map(\.rawValue))),
        .option(
            "--search-area", value: "LAT,LON/RADIUSkm",
            help:
                "where the sealed places lie, all the file says of them (default: a disk \(Int(SearchArea.defaultRadius * 2 / 1000)) km across, drawn at random around each place)"
        ),
        .option(
            "--hunt", value: "FILE",
            help: "the organiser's hunt file: release keys and each page's key (for the board's proofs) are kept there",
            completion: .files(extension: "hunt")),
        .option(
            "--require", value: "hardware",
            help: "location and altitude locks count only fixes from a hardware receiver",
            completion: .words(["hardware"])),
    ]

    var draft = ComposeDraft()
    var quest: QuestOptions?

    init(_ values: ParsedValues) throws(UsageError) {
        try self.init(values, timeZone: .current)
    }

    /// Times without a zone are read in `timeZone`.
    init(_ values: ParsedValues, timeZone: Zone) throws(UsageError) {
        draft.output = values.value("--output")
        draft.force = values.flag("--force")
        draft.title = values.value("--title")
        draft.from = values.value("--from")
        draft.hunt = values.value("--hunt")
        if let requirement = values.value("--require") {
            guard requirement == "hardware" else {
                throw UsageError("--require takes \"hardware\", not \"\(requirement)\"")
            }
            draft.requiresHardware = true
        }
        draft.format =
            try values.value("--format", "--format is 1, 2, 3, 4 or 5") {
                Int($0).flatMap { (1...MessageFile.requestable).contains($0) ? $0 : nil }
            } ?? MessageFile.requestable
        draft.sealCost = try values.value("--seal-cost", "--seal-cost is interactive, moderate or sensitive") {
            SealCost.Level(rawValue: $0.lowercased())
        }
        if let text = values.value("--search-area") {
            do {
                draft.searchArea = try SearchArea.parse(text)
            } catch {
                throw UsageError("--search-area: \(error.problem)")
            }
        }
        if let path = values.value("--quest") {
            quest = try QuestOptions(
                path: path, output: draft.output, keepIDs: values.flag("--keep-ids"), force: draft.force,
                format: draft.format, sealCost: draft.sealCost, values: values)
            quest?.hunt = draft.hunt
            quest?.searchArea = draft.searchArea
            return
        }
        if values.flag("--yes") {
            throw UsageError("--yes goes with --quest: compose asks before sealing a long quest, never one message")
        }
        if values.value("--radius") != nil {
            throw UsageError(
                "--radius goes with --quest and a geocaching GPX; a lock gives its own radius, such as --lock location=47.3769,8.5417/50m"
            )
        }
        if values.value("--lang") != nil {
            throw UsageError("--lang goes with --quest and a geocaching GPX: it picks a stage's question line")
        }
        for flag in ["--in-order", "--any-order"] where values.flag(flag) {
            throw UsageError(
                "\(flag) goes with --quest and a geocaching GPX; a page waits for another with --lock after=ID#PAGE")
        }
        for occurrence in values.occurrences {
            switch (occurrence.name, occurrence.value) {
            case let ("--page", text?): try addPage(text)
            case let ("--lock", spec?): try addLock(spec, timeZone: timeZone)
            case let ("--attach", path?): try addAttachment(path)
            case ("--or", _): try switchToSetB()
            case let ("--hint", text?): try addHint(text)
            case let ("--hint-after", text?): try setHintAfter(text)
            case let ("--hint-cost", text?): try setHintCost(text)
            case let ("--question", text?): try addQuestion(text)
            case let ("--points", text?): try addPoints(text)
            case ("--finish", _): try markFinish()
            case ("--mission", _): try markMission()
            default: break
            }
        }
        try check()
    }

    private func check() throws(UsageError) {
        guard draft.output != nil else { throw UsageError("compose needs -o FILE, the message file to write") }
        guard let title = draft.title, !title.trimmingSpaces().isEmpty else {
            throw UsageError("compose needs --title TITLE")
        }
        guard !draft.pages.isEmpty else { throw UsageError("compose needs at least one --page TEXT") }
        guard draft.pages.count(where: { $0.text == "-" }) <= 1 else {
            throw UsageError("only one --page can read standard input (-)")
        }
        for (index, page) in draft.pages.enumerated() where draft.format == 1 && !page.attachments.isEmpty {
            throw UsageError(
                "page \(index + 1): attachments are sealed with their page, which needs format 2 or later; format 1 keeps pages in the clear"
            )
        }
        for (index, page) in draft.pages.enumerated() where draft.format == 1 {
            if (page.setA + page.setB).contains(where: { $0.kind == .answer }) {
                throw UsageError(
                    "page \(index + 1): an answer lock is part of the page's key, which needs format 2 or later")
            }
            for case let .pin(digits) in page.setA + page.setB where digits.count != 4 {
                throw UsageError(
                    "page \(index + 1): format 1 takes a PIN of exactly 4 digits; longer ones need format 2")
            }
            for spec in page.setA + page.setB {
                if case .visible = spec {
                    throw UsageError("page \(index + 1): ,visible is for format 2; format 1 shows every point")
                }
            }
        }
        for (index, page) in draft.pages.enumerated() {
            for (name, specs) in [("A", page.setA), ("B", page.setB)]
            where specs.contains(where: { $0.kind == .release }) {
                guard draft.format >= 2 else {
                    throw UsageError(
                        "page \(index + 1): a release lock is part of the page's key, so it needs format 2")
                }
                guard draft.hunt != nil else {
                    throw UsageError(
                        "page \(index + 1): a release lock needs --hunt FILE, the organiser's hunt file (chest hunt create)"
                    )
                }
                if specs.contains(where: { spec in
                    if case .pin = spec { return true }
                    if case .visible = spec { return false }
                    return spec.kind == .location
                }) {
                    throw UsageError(
                        "page \(index + 1): a release is the only secret of its set; put the PIN or the hidden place in set B (--or), or add ,visible to the location"
                    )
                }
                _ = name
            }
            for (name, specs) in [("A", page.setA), ("B", page.setB)] {
                var kinds: Set<LockKind> = []
                for spec in specs where !kinds.insert(spec.kind).inserted {
                    throw UsageError(
                        "page \(index + 1) has two \(spec.kind.rawValue) locks in set \(name); use --or for an alternative"
                    )
                }
            }
        }
        if let problem = draft.hintProblem ?? draft.finishProblem ?? draft.missionProblem { throw UsageError(problem) }
        if draft.hunt != nil, draft.format < 2 {
            throw UsageError("--hunt records each page's key for the board's proofs of opening, so it needs format 2")
        }
    }

    func run(settings: Settings) throws {
        if let quest { return try QuestComposer(settings: settings, options: quest).compose() }
        try Composer(settings: settings).compose(draft)
    }
}
