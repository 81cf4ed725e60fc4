import ChestCore
import ChestIO
import ChestSeal
import FoundationEssentials
import Glibc

/// `compose` in formats 2 and 3 (docs/FORMAT.md): each page sealed under its own key, each set's key slot made
/// from its PIN, its place's cells and its release.
extension Composer {
    /// The sealed pages, and one line per page saying how well each is protected.
    func sealedPages(_ draft: ComposeDraft, id: MessageID, fix: Fix?, files: [[AttachedFile]] = []) throws -> (
        pages: [Page], report: [String]
    ) {
        var pages: [Page] = []
        var report: [String] = []
        var sweeps = SharedSweeps()
        var releases = try draft.hunt.map(ReleaseKeys.init(huntPath:))
        // Every page's sets first: a mistake in any page is told before seconds of sealing the others.
        var pageSets: [[PageSealer.SetDraft]] = []
        let start = draft.format >= MessageFile.startVersion ? releases?.startKey() : nil
        for (index, draftPage) in draft.pages.enumerated() {
            let number = index + 1
            if let problem = Message.pageLengthProblem(draftPage.text) {
                throw ChestError("page \(number): \(problem)")
            }
            var sets: [PageSealer.SetDraft] = []
            for specs in [draftPage.setA, draftPage.setB] {
                var set = try sealedSet(specs, fix, page: number, draft: draft, releases: &releases)
                set.cost = SealCost.default(for: set.secretKind, level: draft.sealCost, version: draft.format)
                sets.append(set)
            }
            // A mission's points come from the organiser's verdict on what the team submits, not from a proof of
            // opening (docs/HUNTS.md "Missions"): any page may be one.
            if draft.hunt != nil, !draftPage.mission,
                let problem = Self.unprovablePoints(draftPage.points, sets: sets, page: number, version: draft.format)
            {
                // From a quest, where it is written: the file, the line and the message (issue 59.6).
                throw ChestError(
                    draft.quest == nil ? problem : draft.pageName(number, line: true) + ": " + problem)
            }
            pageSets.append(sets)
        }
        for (index, draftPage) in draft.pages.enumerated() {
            let number = index + 1
            let sets = pageSets[index]
            // A set's runs are derived on every core at once, each taking a core per lane.
            let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
            let seconds = sets.reduce(0.0) { total, set in
                total + set.effectiveCost.seconds(runs: set.derivations(version: draft.format), cores: cores)
            }
            if seconds >= 1 {
                printError(
                    "chest: sealing page \(number): "
                        + Self.sealingWords(
                            runs: sets.reduce(0) { $0 + $1.derivations(version: draft.format) },
                            seconds: seconds))
            }
            let attached = index < files.count ? files[index] : []
            let (sealedPage, pageKey) = PageSealer.sealed(
                text: draftPage.text, setA: sets[0], setB: sets[1], id: id, page: number,
                version: draft.format, files: attached, start: start)
            var page = sealedPage
            page.labels = Page.labels(setA: draftPage.setA, setB: draftPage.setB)
            let hints = Self.sealedHints(
                draftPage.hints, id: id, page: number, version: draft.format, hunt: draft.hunt != nil)
            page.hints = hints.map(\.hint)
            let targets = zip([LockSetName.a, .b], sets).flatMap { name, set in
                set.locks.compactMap { lock -> HuntMessage.Target? in
                    guard case let .location(center, radius) = lock else { return nil }
                    return HuntMessage.Target(center, radius: radius, label: page.labels[name])
                }
            }
            // The board counts a delayed hint from when the pages its page waits for were credited (docs/HUNTS.md
            // "Hints: the board's side").
            // and from its release, for a page published mid-hunt.
            let filled = LockSetName.allCases.filter { !page[$0].isEmpty }
            let waits = filled.map { page[$0].compactMap(\.pageLink) }
            let released = filled.map { page[$0].compactMap(\.releaseName) }
            releases?.record(
                id, title: draft.title ?? "", page: number, key: pageKey, guarded: page.protection != .sealed,
                targets: targets, hints: hints.map(\.kept),
                waitsFor: waits.contains(where: { !$0.isEmpty }) ? waits : nil,
                releases: released.contains(where: { !$0.isEmpty }) ? released : nil)
            (page.question, page.points) = (draftPage.question, draftPage.points)
            releases?.recordGame(
                id, page: number, points: draftPage.points, question: draftPage.question, finish: draftPage.finish,
                mission: draftPage.mission)
            pages.append(page)
            report.append(draft.pageName(number) + ": " + Self.protectionSentence(page, sets: sets))
            sweeps.add(sets, page: number, version: draft.format)
            if let sentence = Self.attachmentSentence(attached, page: number) { report.append(sentence) }
            if let sentence = Self.hintSentence(page.hints, page: number) { report.append(sentence) }
        }
        if start != nil, let path = draft.hunt {
            report.append(
                "every page is sealed under the hunt's start key as well: nothing of it opens anywhere before the board (or chest hunt start --hunt \(path)) publishes that key at the start; whoever has \(path) holds it"
            )
        }
        report += sweeps.sentences(kept: grids.wasKept(_:))
        try releases?.save()
        return (pages, report)
    }

    /// "1 Argon2id run, about 2 s", "12 Argon2id runs, about 40 s".
    static func sealingWords(runs: Int, seconds: Double) -> String {
        "\(runs) Argon2id run\(runs == 1 ? "" : "s"), about \(Int(seconds.rounded(.up))) s"
    }

    static func protectionSentence(_ page: Page, sets: [PageSealer.SetDraft]) -> String {
        if page.protection == .recoverable {
            return
                "sealed (format 2: the place can be recovered from the file by enumerating the decimals it was typed with, in milliseconds): open to whoever has the file; compose in format 3 (the default) to seal it"
        }
        guard page.protection == .sealed else {
            // A page with a place already: that place is visible (in the clear), so the advice is to hide it.
            let hasPlace = sets.contains { set in set.locks.contains { $0.kind == .location } }
            let seal =
                hasPlace
                ? "add a PIN, or drop ,visible from its location lock to seal its place"
                : "add a PIN or a location lock to seal it"
            if page.sealed?.needsStart == true {
                return
                    "guarded only, under the hunt's start key: once it is published, whoever has the file can decode it; "
                    + seal
            }
            return "guarded only: whoever has the file can decode it; " + seal
        }
        if let release = sets.lazy.compactMap(\.release).first,
            sets.filter({ !$0.locks.isEmpty }).allSatisfy({ $0.release != nil })
        {
            return
                "sealed until you release \u{201C}\(release.name)\u{201D} (chest hunt release \(release.name)): its key is a random 256-bit key"
        }
        let weakest = sets.filter { !$0.locks.isEmpty }.map { set -> (coreHours: Double, sentence: String) in
            let attack = BruteForce(
                grid: set.grid, pinDigits: set.pin?.count, cost: set.effectiveCost,
                version: page.sealed?.version ?? MessageFile.baseVersion)
            if !set.answers.isEmpty {
                return answerPrice(set.answers, cost: set.effectiveCost, place: set.hidden == nil ? nil : attack)
            }
            return (attack.coreHours, attack.sentence)
        }.min { $0.coreHours < $1.coreHours }
        return weakest?.sentence ?? "sealed"
    }

    /// What an answer lock is worth to whoever has the file (docs/SECURITY.md "What an answer is worth"): its weakest
    /// answer's shape, tried offline one Argon2id run a guess, and the question in the clear to guess from.
    /// With a sealed place in the set (`place`, its attack alone) the guesses multiply: every answer in every cell.
    static func answerPrice(_ answers: [String], cost: SealCost, place: BruteForce? = nil) -> (
        coreHours: Double, sentence: String
    ) {
        let (guesses, shape) = AnswerText.guesses(answers)
        let count = answers.count == 1 ? "" : " (the weakest of \(answers.count) answers)"
        if let place, let area = place.area {
            let hours = place.searched * guesses * cost.secondsPerGuess / 3600
            return (
                hours,
                "sealed by location and answer: about \(BruteForce.time(hours)) by the best attack (the "
                    + "\(BruteForce.grouped(place.searched)) cells of \(area) with both indices even × \(BruteForce.grouped(guesses)) "
                    + "answers like the weakest, \(shape)\(count), at \(String(printf: "%.2f", cost.secondsPerGuess)) s a guess); "
                    + "still only what the question and the area leave to guess; the answer alone is a game lock, not a secret: the place keeps the text"
            )
        }
        let hours = guesses * cost.secondsPerGuess / 3600
        var sentence =
            "sealed by answer: \(shape)\(count), about \(BruteForce.time(hours)) offline to try every one like it "
            + "(\(BruteForce.grouped(guesses)) guesses at \(String(printf: "%.2f", cost.secondsPerGuess)) s a guess)"
        // Whatever the figure, the question is in the clear: every answer is priced with the same warning.
        sentence +=
            hours < 30 * 24
            ? ", and minutes for whoever can guess it from the question"
            : "; still no stronger than what the question gives away"
        sentence +=
            ": a game lock, not a secret; if the text must stay secret, pair it with a place (a sealed location in its set, docs/SECURITY.md \"What an answer is worth\")"
        return (hours, sentence)
    }

    private func sealedSet(
        _ specs: [LockSpec], _ fix: Fix?, page: Int, draft: ComposeDraft,
        releases: inout ReleaseKeys?
    ) throws -> PageSealer.SetDraft {
        var set = PageSealer.SetDraft(locks: [])
        for spec in specs {
            switch spec {
            case let .lock(.release(name)):
                guard let key = ReleaseName(name).flatMap({ releases?.key(for: $0) }) else {
                    throw ChestError(
                        "page \(page): release=\(name) needs --hunt FILE, the organiser's hunt file (chest hunt create)"
                    )
                }
                set.locks.append(.release(name))
                set.release = (name, key.base64)
            case let .visible(inner, _):
                set.locks += try resolve([inner], fix, page: page)
            case let .pin(digits):
                set.locks.append(.sealedPIN)
                set.pin = digits
            case let .answer(text):
                set.locks.append(.answer)
                set.answers = AnswerText.alternatives(text)
            case .lock(.location), .locationHere:
                guard case let .location(center, radius)? = try resolve([spec], fix, page: page).first else { continue }
                guard abs(center.latitude) + radius / Coordinate.earthRadius * 180 / .pi <= CellGrid.maximumLatitude
                else {
                    throw ChestError(
                        "page \(page): a sealed location works up to ±\(Int(CellGrid.maximumLatitude))° latitude; add ,visible to keep this one in the clear"
                    )
                }
                set.hidden = SearchArea(center: center, radius: radius)
                guard draft.format >= 3 else {
                    set.locks.append(.sealedLocation(CellGrid(center: center, radius: radius)))
                    continue
                }
                if let area = draft.searchArea, !area.contains(center) {
                    throw ChestError(
                        "page \(page): the place \(String(printf: "%.6f,%.6f", center.latitude, center.longitude)) lies outside the search area \(area); widen --search-area or fix the place"
                    )
                }
                let block = CellGrid.keyBlock(version: draft.format, withPIN: ComposeDraft.sealsPlaceWithPIN(specs))
                let (grid, salt) = grids.grid(for: center, radius: radius, declared: draft.searchArea, block: block)
                set.locks.append(.sealedLocation(grid))
                set.gridSalt = salt
            default:
                set.locks += try resolve([spec], fix, page: page)
            }
        }
        if !set.answers.isEmpty && (set.pin != nil || set.release != nil) {
            throw ChestError(
                "page \(page): an answer's only other secret may be a sealed place; put the PIN or the release in the other set (--or)"
            )
        }
        if !set.answers.isEmpty, set.hidden != nil, draft.format < 3 {
            throw ChestError(
                "page \(page): an answer with a sealed place needs format 3; add ,visible to the location or drop --format"
            )
        }
        if set.release != nil && (set.pin != nil || set.hidden != nil) {
            throw ChestError(
                "page \(page): a release is the only secret of its set; put the PIN or the hidden place in the other set, or add ,visible to the location"
            )
        }
        return set
    }
}
