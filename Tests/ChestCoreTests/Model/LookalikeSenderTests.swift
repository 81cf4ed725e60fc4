import Foundation
import Testing

@testable import ChestCore

/// Lookalike senders (docs/SECURITY.md "Known senders"): a name that reads as a known one, under another key.
@Suite struct LookalikeSenderTests {
    static let organiserKey = Data(repeating: 1, count: 32).base64EncodedString()
    static let malloryKey = Data(repeating: 2, count: 32).base64EncodedString()

    @Test(arguments: [
        "\u{041E}rganiser",  // Cyrillic capital O
        "Organ\u{0456}ser",  // Ukrainian i
        "Organiser\u{00A0}",  // trailing no-break space
        "Organ\u{200B}iser",  // zero-width space
        "Org\u{0430}niser",  // Cyrillic a
        "\u{039F}rganiser",  // Greek capital Omicron
        "Organiser ",
        "0rganiser",
        "Organ\u{2060}iser\u{202F}",
    ])
    func aConfusableNameUnderAnotherKeyIsALookalike(_ name: String) {
        var known = KnownSenders()
        let since = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(known.meet("Organiser", key: Self.organiserKey, at: since) == .new)
        #expect(KnownSenders.skeleton(name) == KnownSenders.skeleton("Organiser"))
        let verdict = known.meet(name, key: Self.malloryKey, at: since.addingTimeInterval(60))
        #expect(verdict == .lookalike(of: "Organiser", known: KnownSenders.Entry(key: Self.organiserKey, since: since)))
        // Not recorded: the next message under it is flagged again.
        #expect(known.senders.count == 1)
        #expect(known.meet(name, key: Self.malloryKey, at: since.addingTimeInterval(120)) == verdict)
        // The words show what differs.
        let words = KnownSenders.lookalikeWords(name, of: "Organiser")
        #expect(words.contains("a lookalike of Organiser, a sender you know under another key"), "\(words)")
        #expect(
            !words.hasPrefix("Organiser \u{2014}") && !words.contains("\u{00A0}") && !words.contains("\u{200B}"),
            "\(words)")
    }

    /// The issue's three names, each on its own: the skeleton folds exactly that character away.
    @Test func theIssuesThreeNamesReadAsOrganiser() {
        #expect(KnownSenders.skeleton("\u{041E}rganiser") == "Organiser", "a Cyrillic capital O")
        #expect(KnownSenders.skeleton("Organ\u{0456}ser") == "Organiser", "a Ukrainian i")
        #expect(KnownSenders.skeleton("Organiser\u{00A0}") == "Organiser", "a trailing no-break space")
        #expect(KnownSenders.skeleton("Organiser") == "Organiser")
    }

    @Test(arguments: [
        ("Ian", "\u{0399}an"),  // a Greek capital Iota passes for an I…
        ("Ian", "lan"),  // …and so does a small L: the three read alike
        ("Bob", "B\u{043E}b"),
        ("Anna Meier", "Anna\u{2007}\u{2007}Meier"),  // two figure spaces for one space
        ("Anna Meier", " Anna Meier\u{3000}"),  // ideographic space, and one leading
        ("Zoe", "\u{FF3A}\u{FF4F}\u{FF45}"),  // fullwidth letters (NFKC)
        ("Chloé", "Chlo\u{0435}\u{0301}"),  // a Cyrillic е with a combining acute
        ("Team Red", "Team R\u{0435}d\u{FE0F}"),  // a variation selector
        ("Modern", "Modem"),  // rn passes for m
        ("POOLE", "P00LE"),  // a digit 0 passes for a capital O (not for a small o: "P00le" is no "Poole")
    ])
    func namesThatReadAlikeShareASkeleton(_ known: String, _ lookalike: String) {
        #expect(KnownSenders.skeleton(lookalike) == KnownSenders.skeleton(known), "\(KnownSenders.skeleton(lookalike))")
    }

    /// Names that are merely similar are different names: they show their difference, and each is met on its own.
    @Test(arguments: [
        "Organizer", "Organisers", "Organiser B", "Organ iser", "organiser", "ORGANISER", "Orgánisér",
        "Organiser2", "0rganlser", "Organi\u{015F}er", "P00le",
    ])
    func aMerelySimilarNameIsNoLookalike(_ name: String) {
        let known = name == "P00le" ? "Poole" : "Organiser"
        #expect(KnownSenders.skeleton(name) != KnownSenders.skeleton(known), "\(KnownSenders.skeleton(name))")
        var senders = KnownSenders()
        _ = senders.meet(known, key: Self.organiserKey, at: Date())
        #expect(senders.meet(name, key: Self.malloryKey, at: Date()) == .new)
        // A small i is not an l, though a capital I is.
        #expect(KnownSenders.skeleton("Bili") != KnownSenders.skeleton("Bill"))
        #expect(KnownSenders.skeleton("BilI") == KnownSenders.skeleton("Bill"))
    }

    @Test func theSameKeyOrADifferentNameIsNoLookalike() {
        var known = KnownSenders()
        let now = Date()
        _ = known.meet("Organiser", key: Self.organiserKey, at: now)
        #expect(known.meet("Organiser", key: Self.organiserKey, at: now) == .known)
        // The organiser's own key under a variant of the name: the same sender.
        #expect(known.meet("Organ\u{0456}ser", key: Self.organiserKey, at: now) == .new)
        #expect(known.meet("Organiser B", key: Self.malloryKey, at: now) == .new)
        #expect(
            known.meet("Organiser", key: Self.malloryKey, at: now)
                == .changed(previous: KnownSenders.Entry(key: Self.organiserKey, since: now)))
    }

    @Test func aLookalikeRecordedBeforeTheCheckIsStillFlagged() {
        var known = KnownSenders()
        let early = Date(timeIntervalSince1970: 1_800_000_000)
        _ = known.meet("Organiser", key: Self.organiserKey, at: early)
        known.trust("\u{041E}rganiser", key: Self.malloryKey, at: early.addingTimeInterval(10))
        #expect(
            known.verdict("\u{041E}rganiser", key: Self.malloryKey)
                == .lookalike(of: "Organiser", known: KnownSenders.Entry(key: Self.organiserKey, since: early)))
        #expect(known.verdict("Organiser", key: Self.organiserKey) == .known)
    }

    @Test func theBoardsTeamsAreCheckedAgainstEachOther() {
        let found = KnownSenders.lookalikes(among: ["Red", "Blue", "R\u{0435}d", "Blue\u{00A0}", "Green"])
        #expect(found == ["R\u{0435}d": "Red", "Blue\u{00A0}": "Blue"])
        #expect(KnownSenders.revealed("R\u{0435}d") == "R\\u{435}d")
    }

    /// Issue 61: a joined hunt's organiser key takes back a name first met under another key after the join (a copy
    /// of its message re-signed by a stranger, met first); a name known from before the join keeps its key.
    @Test func theHuntsOrganiserTakesBackANameMetAfterTheJoin() {
        let joined = Date(timeIntervalSince1970: 1_800_000_000)
        var known = KnownSenders()
        _ = known.meet("Organiser", key: Self.malloryKey, at: joined.addingTimeInterval(5))
        let replaced = known.reclaim(
            "Organiser", forOrganiser: Self.organiserKey, joined: joined, at: joined.addingTimeInterval(9))
        #expect(replaced == KnownSenders.Entry(key: Self.malloryKey, since: joined.addingTimeInterval(5)))
        #expect(known.verdict("Organiser", key: Self.organiserKey) == .known)
        #expect(known.verdict("Organiser", key: Self.malloryKey) != .known)

        var before = KnownSenders()
        _ = before.meet("Organiser", key: Self.malloryKey, at: joined.addingTimeInterval(-5))
        #expect(before.reclaim("Organiser", forOrganiser: Self.organiserKey, joined: joined, at: joined) == nil)
        #expect(before.verdict("Organiser", key: Self.malloryKey) == .known)
        #expect(before.reclaim("Nobody", forOrganiser: Self.organiserKey, joined: joined, at: joined) == nil)
    }
}
