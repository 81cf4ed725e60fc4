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
        "--quest QUEST -o DIR|FILE [--keep-ids] [--force] [--yes]",
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
    static let discussion = """
        Writes a sealed message file with 1 to \(Message.maximumPages) pages and prints its ID (on standard error when \
        -o - sends the message itself to standard output). After each --page, every --lock adds a lock to set A; --or \
        switches to set B of the same page. A page opens when every lock of A holds, or every lock of B; a page \
        without locks is open from the start. At most one lock of each type per set. A page's text (at most \
        \(Message.maximumPageLength) characters) can come from a file (--page @story.txt) or standard input \
        (--page -). --from defaults to the name setting, else "\(Message.defaultSender)". An existing FILE is kept \
        unless --force.

        lock specs:
        \(LockSpec.forms.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))

        example:
          chest compose -o oak.locked --title "Birthday" \\
            --page "Under the old oak." --lock location=here/30m --or --lock pin=4821 \\
            --page "Happy birthday!" --lock time=2026-12-01T09:00:00Z

        Formats: files are format 3, each page's text, files and hidden places encrypted. A set with a PIN, an \
        answer, a sealed place or a release holds the page's key only under a key made from them (Argon2id); a set \
        with only time, weather, temperature or altitude locks is a spoiler guard, its key in the file. A message \
        with a PIN or an answer is written as format 5 (their keys in two lanes, a place sealed with a PIN on cells \
        a third as wide), one composed for a hunt with a start as format 6; readers older than that refuse it with \
        "update chest". --format 2 writes the previous format, whose places can be recovered from the file, \
        --format 1 the oldest (text in the clear); every reader opens them all.

        What a sealed place gives away: the file says only its search area, a disk the place lies in. Declare it \
        with --search-area LAT,LON/RADIUSkm (the park, the old town: what a player could guess anyway); without it, \
        compose draws a disk \(Int(SearchArea.defaultRadius * 2 / 1000)) km across at random around each place, \
        afresh for every place. A place alone is a small secret (a 30 m place in a declared 1 km² park falls to \
        minutes of one core); a PIN in the same set is what makes a page hard to open without going there. Places \
        on one grid fall to one search, and compose says which pages share one.

        Costs: each guess costs Argon2id, priced per secret. A PIN or an answer takes two runs of 6 passes over \
        512 MiB side by side (about 2.4 s on an idle 2-core machine, 4.4 s of core time: trying all 10,000 four-digit \
        PINs costs whoever copies the file about 12 core-hours); a place alone 4 passes over 512 MiB (about 1.5 s). \
        Sealing takes seconds a page (a place with a PIN about 30 s on two cores). --seal-cost sets one level (one \
        run) for every set instead. Per page, compose prints on standard error how the page is protected, priced by \
        the best attack ("sealed by location and PIN: about 227 core-days …", "guarded only: …"), and which pages \
        share one search (docs/SECURITY.md "What a place is worth").

        --attach FILE adds a file to the page before it: a picture (PNG, JPEG or WebP, known by its first bytes, not \
        its name) or any other file. Its name, type, size and bytes are sealed with the page's text, so the message \
        file tells nothing of them before the page opens but their total size, to within about 6 %. At most 8 MiB \
        of files a message, all pages together. Sealed formats only (2 and later; format 1 keeps pages in the clear).

        --question TEXT gives the page before it a question, in the clear, shown by read, nav and watch before the \
        page opens; an answer= lock takes up to \(SealedPage.answerSlots) answers, none of them in the file, and \
        the reader answers with chest answer. An answer is worth what the question gives away: pair it with a \
        sealed place in the same set (one key of both) when the page must stay secret. --points N (0 to 1000, \
        default 1) is what a hunt's board credits for the page's proven opening:
          --page "Under the astronomical clock, ask for Kaspar." \\
            --question "What is the name of Bern's clock tower?" \\
            --lock "answer=Zytglogge|Zeitglockenturm" \\
            --lock location=46.94797,7.44745/80m --points 5

        --hint TEXT adds a hint to the page before it (up to \(Page.maximumHints), in order), each sealed under a \
        key of its own. --hint-after DURATION (90s, 10m, 1h30m, 2d) makes the hint before it open by itself that \
        long after its page became the reader's next goal; without it the reader asks for it (chest hint ID). \
        Outside a hunt the hint's key is in the file, so whoever has the file can read it at once. In a hunt \
        (--hunt), every hint's key stays with the organiser: the board gives it when asked, for --hint-cost \
        POINTS, or free once its delay has run.

        --hunt FILE keeps in the organiser's hunt file each page's key (for the board's proofs of opening), the \
        keys of release= locks and hints, the points and the questions (docs/HUNTS.md).

        --quest QUEST -o DIR builds every message of a quest file (docs/QUEST.md; a geocaching GPX works as it is), \
        one NAME.locked each in DIR, and records their IDs in QUEST.ids; --keep-ids reuses them, so a rebuilt quest \
        replaces the messages readers have. Every mistake of the quest is reported in one run (up to 20), each as \
        FILE:LINE: FIELD: what is wrong and what to do, and nothing is written while there is one. When sealing \
        every page will take more than \(Int(SealingEstimate.askAbove / 60)) minutes (a course of hundreds of \
        caches), it says how long first and asks on a terminal; without one it writes nothing unless --yes.
        """

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

    private mutating func addPage(_ text: String) throws(UsageError) {
        guard draft.pages.count < Message.maximumPages else {
            throw UsageError("a message has at most \(Message.maximumPages) pages")
        }
        draft.pages.append(PageDraft(text: text))
    }

    private mutating func addLock(_ value: String, timeZone: Zone) throws(UsageError) {
        guard let index = draft.pages.indices.last else {
            throw UsageError("--lock \(value) comes before any --page; write --page TEXT first")
        }
        var value = value
        // `after=#PAGE`, as in quests (docs/QUEST.md "Chains"): a page of this message, whose ID is chosen now.
        if value.lowercased().hasPrefix("after=#") {
            let id = draft.id ?? MessageID(bytes: Sealer.randomBytes(16))
            draft.id = id
            guard let page = Int(value.dropFirst("after=#".count)), page >= 1, page <= index else {
                throw UsageError(
                    "--lock \(value): after=#PAGE names an earlier page of this message"
                        + (index == 0 ? "; page 1 has none before it" : ", 1 to \(index), such as after=#1"))
            }
            value = "after=\(id)#\(page)"
        }
        let spec: LockSpec
        do {
            spec = try LockSpec.parse(value, timeZone: timeZone)
        } catch {
            throw UsageError(error.description)
        }
        if draft.pages[index].inSetB {
            draft.pages[index].setB.append(spec)
        } else {
            draft.pages[index].setA.append(spec)
        }
        if spec.kind == .location, let radius = value.split(separator: "/").last, radius.last?.isNumber == true {
            draft.warnings.append(
                "--lock \(value): the radius has no unit; read as \(radius) m (write \(radius)m or a distance in km)")
        }
    }

    private mutating func addAttachment(_ path: String) throws(UsageError) {
        guard let index = draft.pages.indices.last else {
            throw UsageError(
                "--attach \(path) comes before any --page; write --page TEXT first, then the files it carries")
        }
        guard draft.pages[index].attachments.count < Attachment.maximumCount else {
            throw UsageError(
                "page \(index + 1) has more than \(Attachment.maximumCount) attachments; put some on another page")
        }
        draft.pages[index].attachments.append(path)
    }

    private mutating func addHint(_ text: String) throws(UsageError) {
        guard let index = draft.pages.indices.last else {
            throw UsageError("--hint comes before any --page; write --page TEXT first, then its hints")
        }
        guard draft.pages[index].hints.count < Page.maximumHints else {
            throw UsageError(
                "page \(index + 1) has more than \(Page.maximumHints) hints; a page has at most \(Page.maximumHints)")
        }
        if let problem = Page.hintProblem(text) { throw UsageError("page \(index + 1): \(problem)") }
        draft.pages[index].hints.append(HintDraft(text: text))
    }

    /// The last hint of the last page, which `--hint-after` and `--hint-cost` belong to.
    private func lastHint(_ option: String) throws(UsageError) -> (page: Int, hint: Int) {
        guard let page = draft.pages.indices.last, let hint = draft.pages[page].hints.indices.last else {
            throw UsageError("\(option) follows no --hint; write --hint TEXT first")
        }
        return (page, hint)
    }

    private mutating func setHintAfter(_ text: String) throws(UsageError) {
        let (page, hint) = try lastHint("--hint-after")
        guard draft.pages[page].hints[hint].after == nil else {
            throw UsageError("hint \(hint + 1) of page \(page + 1) already has its --hint-after")
        }
        switch HintDraft.delay(text) {
        case let .success(seconds): draft.pages[page].hints[hint].after = seconds
        case let .failure(error): throw UsageError("--hint-after: \(error)")
        }
    }

    private mutating func setHintCost(_ text: String) throws(UsageError) {
        let (page, hint) = try lastHint("--hint-cost")
        guard draft.pages[page].hints[hint].cost == nil else {
            throw UsageError("hint \(hint + 1) of page \(page + 1) already has its --hint-cost")
        }
        switch HintDraft.cost(text) {
        case let .success(points): draft.pages[page].hints[hint].cost = points
        case let .failure(error): throw UsageError("--hint-cost: \(error)")
        }
    }

    private mutating func addQuestion(_ text: String) throws(UsageError) {
        guard let index = draft.pages.indices.last else {
            throw UsageError("--question comes before any --page; write --page TEXT first, then its question")
        }
        guard draft.pages[index].question == nil else {
            throw UsageError("page \(index + 1) already has its --question")
        }
        if let problem = Page.questionProblem(text) { throw UsageError("--question on page \(index + 1): \(problem)") }
        draft.pages[index].question = text
    }

    private mutating func addPoints(_ text: String) throws(UsageError) {
        guard let index = draft.pages.indices.last else {
            throw UsageError("--points comes before any --page; write --page TEXT first, then its points")
        }
        guard draft.pages[index].points == nil else { throw UsageError("page \(index + 1) already has its --points") }
        switch Page.parsePoints(text) {
        case let .success(points): draft.pages[index].points = points
        case let .failure(error): throw UsageError("--points on page \(index + 1): \(error), such as --points 5")
        }
    }

    private mutating func markFinish() throws(UsageError) {
        guard let index = draft.pages.indices.last else {
            throw UsageError("--finish comes before any --page; write --page TEXT first, then --finish")
        }
        draft.pages[index].finish = true
    }

    private mutating func markMission() throws(UsageError) {
        guard let index = draft.pages.indices.last else {
            throw UsageError("--mission comes before any --page; write --page TEXT first, then --mission")
        }
        draft.pages[index].mission = true
    }

    private mutating func switchToSetB() throws(UsageError) {
        guard let index = draft.pages.indices.last else { throw UsageError("--or comes before any --page") }
        guard !draft.pages[index].inSetB else {
            throw UsageError("page \(index + 1) already has its --or; a page has two lock sets, A and B")
        }
        guard !draft.pages[index].setA.isEmpty else {
            throw UsageError("--or on page \(index + 1) follows no --lock; give set A a lock first")
        }
        draft.pages[index].inSetB = true
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
