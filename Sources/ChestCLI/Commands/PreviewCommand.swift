import ChestArguments
import ChestCore
import ChestIO
import FoundationEssentials
import Glibc

/// `chest preview QUEST|FILE...`: every page, lock and protection as the reader will see them; opens nothing.
struct PreviewCommand: ChestCommand {
    static let name = "preview"
    static let abstract = "show a quest's or message file's pages and locks, read-only"
    static let synopses = ["QUEST|FILE..."]
    static let discussion = """
        For an organiser: every page's text, question and hints, every lock as `chest read` will word it, the \
        files each page carries, and how each is protected in the file, in the words compose uses: what a sealed \
        page's key needs and what the best attack costs ("sealed: …", "guarded only: …"); in a format 1 file a \
        PIN is a salted hash and a place, a time or a condition is in the clear. It warns when a sealed place \
        leaves the reader without direction: on page 1 of its message and waiting for no other page, so nothing \
        the reader can open says where to go, and nav shows no distance (say where to go in the title or an open \
        page, or add ,visible). Read-only: nothing is opened, sent or changed, and chestd is not asked. A quest is \
        checked as compose --quest checks it (docs/QUEST.md).
        """
    static let parameters: [Parameter] =
        [
            .positional(
                "PATH", arity: .oneOrMore, help: "a quest file, or message files (*.locked)", completion: .files())
        ] + CourseOptions.parameters

    var paths: [String]
    var course: CourseOptions

    init(_ values: ParsedValues) throws(UsageError) {
        paths = values.positional("PATH")
        course = try CourseOptions(values)
    }

    func run(settings: Settings) throws {
        print(Self.render(try Rehearsal(paths: paths, course: course), timeZone: .current))
    }

    static func render(_ rehearsal: Rehearsal, timeZone: Zone) -> String {
        var lines = ["Preview, read-only: nothing is opened and no chest changes."]
        if rehearsal.fromQuest {
            lines.append("Built with --keep-ids the messages get the IDs below; without it, new ones.")
        }
        for item in rehearsal.items {
            lines += [
                "", "\(item.draft.title) — from \(item.draft.from ?? "(the name setting)")",
                "\(item.name) · \(item.draft.id)" + (item.seal.map { " · \($0)" } ?? ""),
            ]
            if item.draft.orderStated { lines.append("Pages in \(item.draft.order.wording).") }
            for (index, page) in item.draft.pages.enumerated() {
                lines.append("")
                let opensAtOnce = page.setA.isEmpty && page.setB.isEmpty
                lines.append("Page \(index + 1)" + (opensAtOnce ? " — open from the start" : " — locked"))
                let filePage = item.file?.pages[index]
                if let question = page.question ?? filePage?.question {
                    lines.append(
                        "  question (in the clear; shown before the page opens): " + TerminalText.escaped(question))
                }
                if let points = page.points ?? filePage?.points {
                    lines.append("  worth \(points) point\(points == 1 ? "" : "s") on the board")
                    // What `compose --hunt` would refuse, said here rather than promised (docs/HUNTS.md "Points").
                    let sets = [page.setA, page.setB].filter { !$0.isEmpty }
                    if points > 0, item.file == nil,
                        sets.isEmpty || sets.contains(where: { !holdsSecret($0, sealedByDefault: true) })
                    {
                        lines.append(
                            "  warning: compose --hunt refuses these points: "
                                + (sets.isEmpty
                                    ? "a page without locks sends the board no receipt"
                                    : "a set of it holds no secret (a place without ,visible, a PIN, an answer or a release), so nothing proves it")
                                + "; add one, or make it worth 0")
                    }
                }
                for (set, specs) in [("A", page.setA), ("B", page.setB)] where !specs.isEmpty {
                    lines.append("  \(set == "A" ? "" : "or ")set \(set):")
                    for spec in specs {
                        lines.append("    \(spec.kind.rawValue): \(describe(spec, rehearsal, timeZone: timeZone))")
                        lines.append("      protection: \(protection(spec, sealedByDefault: rehearsal.fromQuest))")
                    }
                    if leavesWithoutDirection(specs, page: index + 1, sealedByDefault: rehearsal.fromQuest) {
                        lines.append(
                            "    warning: the reader gets no direction to this sealed place: nav shows no distance, and nothing "
                                + "readable comes before it (it is page 1 and waits for no other page). Say where to go in the "
                                + "title or an open page before it, or add ,visible (docs/QUEST.md \"Sealed or visible places\")"
                        )
                    }
                }
                let sets = item.draft.pages.flatMap { [$0.setA, $0.setB] }
                let version =
                    item.file.map(\.version)
                    ?? (rehearsal.fromQuest
                        ? ComposeDraft.written(MessageFile.requestable, sets: sets, sealCost: nil) : 1)
                let protection = item.file.map { $0.pages[index].protection } ?? textProtection(page, version: version)
                lines.append(
                    protection == .unsealed
                        ? "  text (stored in the clear in the file; the reader sees it once the page opens):"
                        : "  text (\(Output.protection(protection)); format \(version)):")
                lines += page.text.split(separator: "\n", omittingEmptySubsequences: false).map { "  │ " + $0 }
                lines += attachmentLines(draft: page, file: item.file?.pages[index])
                lines += hintLines(draft: page.hints, file: item.file?.pages[index].hints)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// How a quest page's text will be kept, in the words compose uses: sealed when every set holds a secret (a
    /// PIN, a sealed place, a release), guarded when some set holds none, or the page has no lock.
    static func textProtection(_ page: QuestDraft.Page, version: Int) -> Protection {
        guard version >= 2 else { return .unsealed }
        let sets = [page.setA, page.setB].filter { !$0.isEmpty }
        let sealed =
            !sets.isEmpty
            && sets.allSatisfy { set in
                set.contains { spec in
                    switch spec {
                    case .visible: false
                    case .pin, .locationHere, .answer: true
                    case .lock(.location), .lock(.pin): version >= 2
                    case .lock(.sealedLocation), .lock(.sealedPIN), .lock(.release): true
                    default: spec.kind == .release
                    }
                }
            }
        return sealed ? .sealed : .guarded
    }

    /// The last component of `path` as NSString's `lastPathComponent` gave it: trailing slashes do not count
    /// ("a/b/" gives "b"), "/" stays "/".
    static func lastPathComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? (path.hasPrefix("/") ? "/" : "")
    }

    /// The files a page carries: from a quest, each by name, type and size; in a file, their names are sealed with
    /// the page, so only how many bytes.
    static func attachmentLines(draft: QuestDraft.Page, file: Page?) -> [String] {
        if let sealed = file?.attachments {
            return ["  attached: files of \(Attachment.sizeText(sealed.size)) in all (their names open with the page)"]
        }
        return draft.attachments.map { path in
            let name = lastPathComponent(path)
            guard let data = FileManager.default.contents(atPath: path) else {
                return "  attached: \(TerminalText.escaped(name))"
            }
            return "  "
                + TerminalText.escaped(
                    Output.attachmentLines([
                        Attachment(
                            name: name, type: Attachment.mediaType(of: data),
                            size: data.count)
                    ])[0])
        }
    }

    /// What `chest read` will say the lock asks for.
    static func describe(_ spec: LockSpec, _ rehearsal: Rehearsal, timeZone: Zone) -> String {
        switch spec {
        case let .lock(.after(link)):
            let name =
                rehearsal.name(of: link.message).map { "message \($0)" }
                ?? "message \(link.message.short) (not in this preview)"
            return "page \(link.page) of \(name)"
        case let .lock(.time(date)): return "from \(LockReason.format(date, timeZone))"
        case let .lock(.sealedLocation(grid)):
            guard let area = grid.area else {
                return
                    "a sealed place: the reader sees no distance, only whether it opened; sealed (format 2: the place can be recovered from the file)"
            }
            return "a sealed place in the search area \(area): the reader sees no distance, only whether it opened"
        case let .visible(inner, label):
            return (label.map { "\u{201C}\($0)\u{201D}: " } ?? "") + describe(inner, rehearsal, timeZone: timeZone)
        case let .lock(lock): return lock.condition
        case .pin: return "the right PIN"
        case .answer: return "the right answer"
        case let .locationHere(radius): return "within \(Int(radius)) m of chestd's fix when the quest is built"
        case let .altitudeHere(margin): return "within ±\(Int(margin)) m of chestd's altitude when the quest is built"
        }
    }

    /// Whether a set of these locks holds a secret, so that its receipt proves its page was opened: a sealed place
    /// (a quest's place is sealed unless `,visible`), a PIN, an answer or a release.
    static func holdsSecret(_ specs: [LockSpec], sealedByDefault: Bool) -> Bool {
        specs.contains { spec in
            switch spec {
            case .pin, .answer, .lock(.sealedLocation), .lock(.sealedPIN), .lock(.pin), .lock(.release): true
            case .lock(.location), .locationHere: sealedByDefault
            default: false
            }
        }
    }

    /// Whether a set's sealed place is the first thing its reader must find with nothing to go by: on page 1,
    /// waiting for no other page, so no text the reader can open before it can say where it is.
    static func leavesWithoutDirection(_ specs: [LockSpec], page: Int, sealedByDefault: Bool) -> Bool {
        guard page == 1, !specs.contains(where: { $0.kind == .after }) else { return false }
        return specs.contains { spec in
            switch spec {
            case .lock(.sealedLocation): true
            case .lock(.location), .locationHere: sealedByDefault
            default: false
            }
        }
    }

    /// How the file keeps the lock (docs/FORMAT.md): a quest is built in format 3 unless it says otherwise, where
    /// a location and a PIN are sealed into the page's key unless the location is `,visible`.
    static func protection(_ spec: LockSpec, sealedByDefault: Bool) -> String {
        switch spec {
        case let .lock(.sealedLocation(grid)) where grid.area == nil:
            return
                "sealed (format 2: the place can be recovered from the file by enumerating the decimals it was typed with; rebuild it to get format 3)"
        case .lock(.sealedLocation): return sealedPlace
        case .lock(.sealedPIN): return sealedPIN
        case .visible: return clearPlace + " (visible: the reader sees distance and direction)"
        case .lock(.location), .locationHere: return sealedByDefault ? sealedPlace : clearPlace
        case .lock(.pin), .pin:
            return sealedByDefault
                ? sealedPIN : "a salted Argon2id hash; the digits are not in the file, and wrong attempts are counted"
        default: break
        }
        switch spec.kind {
        case .time: return "the instant is in the clear; chestd checks the clock against GPS time"
        case .after: return "the page it waits for is named in the clear"
        case .release:
            return "sealed: the organiser's release key is part of the page's key; only its name is in the file"
        case .answer:
            return sealedByDefault
                ? "sealed: each answer is part of the page's key; no answer is in the file (an answer is worth what the question gives away)"
                : "an answer needs format 2 or later"
        default: return "the condition is in the clear"
        }
    }

    static let clearPlace = "the point is in the clear: anyone with the file can read where it opens"
    static let sealedPlace =
        "sealed: the point is inside the page's ciphertext, its key derived from the place's cell; the file says only the search area (docs/FORMAT.md \"Format 3\")"
    static let sealedPIN = "sealed: the PIN is part of the page's key; no hash is stored"
}
