import ChestCore
import ChestIO
import ChestSeal
import FoundationEssentials
import Glibc

/// What `list`, `read` and `watch` say of a message's sender against the known senders (docs/SECURITY.md "Known
/// senders"): its key's short fingerprint, and a flag when the name is known with another key. A name met for the
/// first time is recorded, as ssh records a new host; not from a message whose ID another key's message in the
/// chest has too, since one of the two is a copy and which one is not known (docs/SECURITY.md "Round five (issue
/// 61)"). The joined hunt's organiser key, from its join file, takes back a name first met under another key after
/// the join.
struct SenderCheck {
    let settings: Settings
    private(set) var known: KnownSenders
    private var changed = false
    /// The joined hunt's organiser key (base64) and when the join file was written; nil when no hunt is joined.
    private let organiser: (key: String, joined: Date)?
    /// What moved to the organiser's key, said once on standard error by `save`.
    private var notices: [String] = []

    init(settings: Settings) {
        self.settings = settings
        // An unreadable file is reported by `chest senders`; here it must not stop a list or a read.
        known = (try? KnownSendersFile.load(settings)) ?? KnownSenders()
        let path = settings.configDirectory + "/" + HuntFile.joinedFileName
        var info = stat()
        if let file = try? HuntFile.read(path: path), stat(path, &info) == 0 {
            organiser = (file.organiser, Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec)))
        } else {
            organiser = nil
        }
    }

    /// The note for a sender: nil for your own messages and messages without a seal. `sameID`: the chest IDs of
    /// other senders' messages with the message's ID.
    mutating func note(from name: String, key: String?, sentByYou: Bool, sameID: [MessageID]? = nil) -> Note? {
        guard !sentByYou, let key else { return nil }
        if let organiser, key == organiser.key,
            let replaced = known.reclaim(name, forOrganiser: key, joined: organiser.joined, at: Date())
        {
            changed = true
            notices.append(
                "chest: \(TerminalText.escaped(name)) is now the key of the hunt's organiser (\(KeyFingerprint.short(key)), from the join file), "
                    + "not \(KeyFingerprint.short(replaced.key)), met under that name after you joined")
        }
        let shared = sameID ?? []
        let verdict = shared.isEmpty ? known.meet(name, key: key, at: Date()) : known.verdict(name, key: key)
        if verdict == .new && shared.isEmpty { changed = true }
        return Note(fingerprint: KeyFingerprint.short(key), verdict: verdict, name: name, sameID: shared)
    }

    /// Keeps what was met for the first time; a failure to write is only reported.
    func save() {
        for notice in notices { printError(notice) }
        guard changed else { return }
        do {
            try KnownSendersFile.save(known, settings)
        } catch {
            printError("chest: cannot record the senders' keys in \(KnownSendersFile.path(settings)): \(error)")
        }
    }

    struct Note {
        var fingerprint: String
        var verdict: KnownSenders.Verdict
        var name: String
        /// The chest IDs of other senders' messages with this message's ID: one of them is a copy.
        var sameID: [MessageID] = []

        /// The name is known with another key, reads as a known name that has another key, or another key's
        /// message has this message's ID.
        var isChanged: Bool {
            guard sameID.isEmpty else { return true }
            switch verdict {
            case .changed, .lookalike: return true
            case .new, .known: return false
            }
        }

        /// What `list`, `read` and `watch` say of a message whose ID another key's message has too.
        var sameIDWords: String? {
            guard !sameID.isEmpty else { return nil }
            return
                "another key's message in the chest has this ID (\(sameID.map(\.short).joined(separator: ", "))): one of them is a copy"
        }

        /// The known name this one reads as under another key, for the JSON's `lookalikeOf`; nil for any other verdict.
        var lookalikeOf: String? {
            if case let .lookalike(known, _) = verdict { known } else { nil }
        }

        /// What follows the warning: how to trust a key that really changed; nothing for a lookalike, whose name is
        /// not the one known.
        func advice(_ id: MessageID) -> String {
            if case .lookalike = verdict { return "" }
            guard sameID.isEmpty else {
                return "; compare the keys with the sender's and delete the copy (chest delete ID)"
            }
            return "; if the sender really changed keys: chest senders trust \(id.short)"
        }

        /// What `list` says after the title of a flagged sender.
        var flagWords: String? {
            let words: String? =
                switch verdict {
                case .changed: KnownSenders.changedWords(name)
                case let .lookalike(known, _): KnownSenders.lookalikeWords(name, of: known)
                case .new, .known: nil
                }
            let all = [words, sameIDWords].compactMap { $0 }
            return all.isEmpty ? nil : all.joined(separator: "; ")
        }

        /// "Organiser — not the key you had before (key …; you had … since …)", or a lookalike's words; nil when the
        /// key is the known one.
        var warning: String? {
            switch verdict {
            case let .changed(previous):
                KnownSenders.changedWords(name)
                    + " (key \(fingerprint); you had \(KeyFingerprint.short(previous.key)) since "
                    + "\(LockReason.format(previous.since, .current)))"
            case let .lookalike(known, entry):
                KnownSenders.lookalikeWords(name, of: known)
                    + " (key \(fingerprint); \(TerminalText.escaped(known))'s is "
                    + "\(KeyFingerprint.short(entry.key)) since \(LockReason.format(entry.since, .current)))"
            case .new, .known: nil
            }
        }

        /// `warning` and `sameIDWords`, as one sentence; nil when neither.
        var warnings: String? {
            let all = [warning, sameIDWords].compactMap { $0 }
            return all.isEmpty ? nil : all.joined(separator: "; ")
        }
    }
}
