import ChestCore
import FoundationEssentials

/// What `compose` was asked to write, before PINs are hashed and `here` is resolved.
struct ComposeDraft: Equatable {
    /// Chosen by the caller (a quest, whose chains name IDs), else a random one.
    var id: MessageID?
    var output: String?
    var force = false
    /// Said on standard error before the message is written.
    var warnings: [String] = []
    var title: String?
    var from: String?
    var pages: [PageDraft] = []
    /// `--require hardware`.
    var requiresHardware = false
    /// The newest unless `--format`; `Composer` writes 3 where 4 would change nothing (`MessageFile.written`).
    var format = MessageFile.requestable
    /// `--seal-cost`: one level for every set; nil prices each set by its secret.
    var sealCost: SealCost.Level?
    /// `--search-area` (or a quest's `search-area:`): where the sealed places lie.
    var searchArea: SearchArea?
    /// `--hunt FILE`: where release locks find (or keep) their keys, and page keys are recorded for proofs.
    var hunt: String?
    /// From a quest: its file and the message's name, so that what compose says of a page names where it is written
    /// (issue 59.6); nil on the command line.
    var quest: QuestOrigin?

    /// Where a quest's message is written: the quest's file, the message's name, how many messages the quest has.
    struct QuestOrigin: Equatable {
        var file: String
        var message: String
        var messages: Int
    }

    /// "page 2", or from a quest of several messages "message walk, page 2"; with `line`, where the quest has it.
    func pageName(_ number: Int, line: Bool = false) -> String {
        guard let quest else { return "page \(number)" }
        let written = pages.indices.contains(number - 1) ? pages[number - 1].line : nil
        let prefix = line ? written.map { "\(quest.file) line \($0), " } ?? "\(quest.file), " : ""
        return prefix + (line || quest.messages > 1 ? "message \(quest.message), " : "") + "page \(number)"
    }
}

struct PageDraft: Equatable {
    var text: String
    var setA: [LockSpec] = []
    var setB: [LockSpec] = []
    var inSetB = false
    /// `--attach FILE` (or a quest's `attach:`): the files' paths, in order.
    var attachments: [String] = []
    /// `--question TEXT`, `--points N` (or a quest's `question:`, `points:`).
    var question: String?
    var points: Int?
    /// `--finish` (or a quest's `finish: yes`): the page's credited receipt stops the team's clock (docs/HUNTS.md
    /// "A finish").
    var finish = false
    /// `--mission` (or a quest's `mission: yes`): the organiser judges what a team submits for the page, and gives
    /// at most its points (docs/HUNTS.md "Missions").
    var mission = false
    /// `--hint TEXT` (or a quest's `hint:`), in order (docs/FORMAT.md "Hints").
    var hints: [HintDraft] = []
    /// The quest's line of its `page:`; nil on the command line.
    var line: Int?
}

extension ComposeDraft {
    /// The version the message is written in (`MessageFile.written`): what formats 4 and 5 change is a place sealed
    /// with a PIN, and a PIN or an answer keyed in lanes at the default cost (docs/FORMAT.md "Format 5").
    var writtenFormat: Int { Self.written(format, sets: pages.flatMap { [$0.setA, $0.setB] }, sealCost: sealCost) }

    /// `writtenFormat` of a message whose sets are `sets`.
    static func written(_ requested: Int, sets: [[LockSpec]], sealCost: SealCost.Level?) -> Int {
        let keyed =
            sealCost == nil
            && sets.contains { specs in
                specs.contains { if case .pin = $0 { true } else if case .answer = $0 { true } else { false } }
            }
        return MessageFile.written(
            requested, placeWithPIN: sets.contains(where: sealsPlaceWithPIN), keyedInLanes: keyed)
    }

    /// Whether a set's specs hold a PIN and a place that is not visible.
    static func sealsPlaceWithPIN(_ specs: [LockSpec]) -> Bool {
        specs.contains { if case .pin = $0 { true } else { false } }
            && specs.contains {
                if case .lock(.location) = $0 { true } else if case .locationHere = $0 { true } else { false }
            }
    }

    /// Why a mission page cannot be written: only a hunt's organiser judges (docs/HUNTS.md "Missions").
    var missionProblem: String? {
        guard hunt == nil, let page = pages.firstIndex(where: \.mission) else { return nil }
        return
            "page \(page + 1) is a mission (--mission, or mission: yes in a quest), which needs --hunt FILE: only a hunt's organiser judges what a team submits"
    }

    /// Why a finish page cannot be written: only a hunt's board stops a team's clock (docs/HUNTS.md "A finish").
    var finishProblem: String? {
        guard hunt == nil, let page = pages.firstIndex(where: \.finish) else { return nil }
        return
            "page \(page + 1) is a finish (--finish, or finish: yes in a quest), which needs --hunt FILE: only a hunt's board stops a team's clock"
    }

    /// Why the hints cannot be written as asked, or nil: they are sealed (formats 2 and 3), and only a hunt's board
    /// can charge for one (docs/HUNTS.md "Hints").
    var hintProblem: String? {
        for (index, page) in pages.enumerated() where !page.hints.isEmpty {
            if format < 2 {
                return "page \(index + 1): hints are sealed under keys of their own, which needs format 2 or later"
            }
            if hunt == nil, let hint = page.hints.firstIndex(where: { $0.cost != nil }) {
                return
                    "page \(index + 1), hint \(hint + 1): --hint-cost needs --hunt FILE: only a hunt's board can charge for a hint"
            }
        }
        return nil
    }
}
