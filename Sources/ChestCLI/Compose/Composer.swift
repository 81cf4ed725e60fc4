import ChestArguments
import ChestCore
import ChestIO
import ChestSeal
import FoundationEssentials
import Glibc

/// `chest compose`: resolves `here` and PINs, seals the message with the user's identity, writes the file.
struct Composer {
    let settings: Settings
    /// The organiser's grids for sealed places, kept in the config directory; shared by every message a quest
    /// builds with this composer and by later composes.
    let grids: SealGrids

    init(settings: Settings) {
        self.settings = settings
        grids = SealGrids(keptAt: settings.configDirectory + "/grids.json")
    }

    func compose(_ given: ComposeDraft) throws {
        var draft = given
        draft.format = draft.writtenFormat
        // docs/HUNTS.md "The start key": a hunt with a start seals every page under its start key too (format 6).
        if draft.format >= 2, let path = draft.hunt, try HuntFile.read(path: path).starts != nil {
            guard given.format >= MessageFile.requestable else {
                throw ChestError(
                    "\(path) has a start: its pages are sealed under the hunt's start key as well, which needs format \(MessageFile.startVersion) (format 5 and the start key); leave out --format"
                )
            }
            draft.format = MessageFile.startVersion
        }
        for index in draft.pages.indices { draft.pages[index].text = try text(of: draft.pages[index].text) }
        let needsFix = draft.pages.contains { page in
            (page.setA + page.setB).contains {
                if case .locationHere = $0 { true } else if case .altitudeHere = $0 { true } else { false }
            }
        }
        let fix = needsFix ? try currentFix() : nil
        let id = draft.id ?? MessageID(bytes: Sealer.randomBytes(16))
        var pages: [Page] = []
        var report: [String] = []
        if draft.format == 1, let index = draft.pages.firstIndex(where: { Message.pageLengthProblem($0.text) != nil }) {
            throw ChestError("page \(index + 1): \(Message.pageLengthProblem(draft.pages[index].text)!)")
        }
        if let problem = draft.hintProblem { throw ChestError(problem) }
        let files = try Self.attachedFiles(draft)
        if draft.format >= 2 {
            (pages, report) = try sealedPages(draft, id: id, fix: fix, files: files)
        } else {
            for (index, draftPage) in draft.pages.enumerated() {
                var page = Page(
                    text: draftPage.text, setA: try resolve(draftPage.setA, fix, page: index + 1),
                    setB: try resolve(draftPage.setB, fix, page: index + 1))
                page.labels = Page.labels(setA: draftPage.setA, setB: draftPage.setB)
                (page.question, page.points) = (draftPage.question, draftPage.points)
                pages.append(page)
                report.append(
                    "page \(index + 1): unsealed (format 1): the text and every point are in the file in the clear")
            }
        }
        var warnings = draft.warnings
        for (index, page) in draft.pages.enumerated() {
            if let warning = Self.delayedHintWarning(page.hints, page: index + 1, hunt: draft.hunt != nil) {
                warnings.append(warning)
            }
        }
        for (index, page) in pages.enumerated() {
            for case let .time(instant) in page.setA + page.setB where instant < Date() {
                warnings.append(
                    "page \(index + 1): the time \(LockReason.format(instant, .current, seconds: true)) is already past; the page opens as soon as it is read"
                )
            }
        }
        for warning in warnings { printError("chest: warning: \(warning)") }
        let output = try OutputFile(checking: draft.output ?? "", force: draft.force)
        let isNew = !FileManager.default.fileExists(atPath: settings.identityPath)
        let identity = try Identity.loadOrCreate(at: settings.identityPath)
        if isNew {
            printError(
                "chest: made your identity (the key that seals your messages) at \(settings.identityPath); back it up: whoever has it can seal messages as you"
            )
        }
        let unsealed = Message(
            id: id, title: draft.title ?? "",
            from: draft.from ?? settings.senderName, created: Date(), pages: pages,
            seal: nil, requiresHardware: draft.requiresHardware)
        do {
            try MessageFile.validate(unsealed)
        } catch {
            throw UsageError(error.description)
        }
        let message = Sealer.seal(unsealed, with: identity)
        let data = MessageFile.encode(message)
        guard data.count <= MessageFile.fileLimit else {
            throw ChestError(MessageFormatError.tooLarge(size: data.count, limit: MessageFile.fileLimit).description)
        }
        grids.save()
        try output.write(checked: data)
        if output.target == .standardOutput {
            printError(message.id.rawValue)
            return
        }
        print(message.id)
        printError(report.joined(separator: "\n"))
    }

    /// A page's text as given, or read from a file (`@story.txt`) or standard input (`-`), so that long texts do
    /// not meet the argument limit.
    private func text(of given: String) throws -> String {
        if given == "-" { return String(decoding: Output.readStandardInput(), as: UTF8.self) }
        guard given.hasPrefix("@"), given.count > 1 else { return given }
        let file = String(given.dropFirst())
        guard let data = FileManager.default.contents(atPath: file) else {
            throw ChestError(
                FileManager.default.fileExists(atPath: file) ? "cannot read \(file)" : "\(file): no such file")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw ChestError("\(file) is not UTF-8 text") }
        return text
    }

    func resolve(_ specs: [LockSpec], _ fix: Fix?, page: Int) throws -> [Lock] {
        try specs.map { spec in
            switch spec {
            case let .lock(lock): return lock
            case let .visible(inner, _): return try resolve([inner], fix, page: page)[0]
            case let .pin(digits): return .pin(hash: Sealer.hashPIN(digits))
            case .answer:
                throw ChestError(
                    "page \(page): an answer lock is part of the page's key, so it needs format 2 or later")
            case let .locationHere(radius):
                guard let position = fix?.position else {
                    throw ChestError("location=here: \(LockReason.noFix(gpsConnected: true))")
                }
                let accuracy = fix?.eph.map { ", ±\(Int($0.rounded())) m" } ?? ""
                printError(
                    String(printf: "chest: page %d: here is %.6f, %.6f", page, position.latitude, position.longitude)
                        + "\(accuracy) (chestd's fix)")
                return .location(center: position, radius: radius)
            case let .altitudeHere(margin):
                guard let altitude = fix?.altitude3D else {
                    throw ChestError(
                        "altitude=here needs a 3D fix with an altitude; chestd's fix has none yet (see chest status)")
                }
                printError(
                    String(printf: "chest: page %d: here is %.1f m above sea level (chestd's fix)", page, altitude))
                return .altitude(Bounds(min: altitude - margin, max: altitude + margin))
            }
        }
    }

    /// chestd's current qualified fix.
    private func currentFix() throws -> Fix {
        do {
            return try ControlClient(socketPath: settings.socketPath).call(ControlRequest.fix, expecting: Fix.self)
        } catch {
            throw ChestError("\"here\" needs chestd's current fix: \(error)")
        }
    }
}
