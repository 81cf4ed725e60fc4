import ChestCore
import ChestIO
import FoundationEssentials
import Glibc

/// What sealing a quest costs its organiser, told before it starts (docs/QUEST.md "What building costs"): every
/// sealed set's Argon2id runs, priced as compose prices each page as it seals it ("chest: sealing page 1: …").
/// A course of 10,000 caches is hours of both cores; compose --quest asks first when it is more than `askAbove`.
struct SealingEstimate: Equatable {
    /// Pages that cost at least one run.
    var pages = 0
    var runs = 0
    /// Of the machine's cores, all busy.
    var seconds = 0.0

    /// Past this, compose --quest says what it will cost and asks (or takes --yes): ten minutes, where a small quest
    /// (a dozen places, a few with PINs) stays well under.
    static let askAbove = 600.0

    /// Adds the pages of one message, composed as `draft` says (its format, its --seal-cost).
    mutating func add(_ draft: ComposeDraft, cores: Int) {
        let format = draft.writtenFormat
        for page in draft.pages {
            let sets = [page.setA, page.setB].compactMap { Self.set($0, format: format, level: draft.sealCost) }
            guard !sets.isEmpty else { continue }
            pages += 1
            for (setRuns, cost) in sets {
                runs += setRuns
                seconds += cost.seconds(runs: setRuns, cores: cores)
            }
        }
    }

    /// The Argon2id runs sealing a set takes, and their cost; nil for a set that holds no secret. A place's runs are
    /// the cells of its key block (`CellGrid.keyBlock`), which almost every place touches, each once per answer.
    static func set(_ specs: [LockSpec], format: Int, level: SealCost.Level?) -> (runs: Int, cost: SealCost)? {
        guard format >= 2 else { return nil }
        var (place, pin, release, answers) = (false, false, false, 0)
        for spec in specs {
            switch spec {
            case .lock(.location), .locationHere: place = true
            case .pin: pin = true
            case .lock(.release): release = true
            case let .answer(text): answers = AnswerText.alternatives(text).count
            default: continue
            }
        }
        guard place || pin || release || answers > 0 else { return nil }
        let block = CellGrid.keyBlock(version: format, withPIN: ComposeDraft.sealsPlaceWithPIN(specs))
        let cells = place ? (format >= 3 ? block * block : 1) : 1
        let secret = SealCost.Secret.of(place: place, pin: pin, answer: answers > 0)
        return (cells * max(1, answers), SealCost.default(for: secret, level: level, version: format))
    }

    /// "sealing 10,000 pages of 2,000 messages takes about 8 h 36 min on this machine's 2 cores (40,000 Argon2id
    /// runs: …)".
    func sentence(messages: Int, cores: Int) -> String {
        "sealing \(BruteForce.grouped(Double(pages))) page\(pages == 1 ? "" : "s") of "
            + "\(BruteForce.grouped(Double(messages))) message\(messages == 1 ? "" : "s") takes about "
            + "\(Wording.duration(seconds)) on this machine's \(cores) core\(cores == 1 ? "" : "s") "
            + "(\(BruteForce.grouped(Double(runs))) Argon2id runs: each sealed page's key is made slow to guess)"
    }

    /// Tells the cost on standard error when it is more than `askAbove`, then asks on a terminal; without one, goes on
    /// only with `yes`. Throws when the organiser did not say to go on: nothing is written then.
    func confirm(messages: Int, cores: Int, yes: Bool) throws {
        guard seconds > Self.askAbove else { return }
        printError("chest: " + sentence(messages: messages, cores: cores))
        if yes { return }
        guard isatty(STDIN_FILENO) == 1 else {
            throw ChestError(
                "nothing was written: give --yes to seal it all the same, or split the quest (docs/QUEST.md \"What building costs\")"
            )
        }
        try? FileDescriptor.standardError.writeAll(Array("go on? [y/N] ".utf8))
        guard let answer = readLine()?.trimmingSpaces().lowercased(), ["y", "yes"].contains(answer) else {
            throw ChestError("nothing was written")
        }
    }
}
