import ChestCore
import ChestIO
import ChestSeal
import FoundationEssentials

/// What `list`, `read` and `watch` say of a message's sender against the known senders (docs/SECURITY.md "Known
/// senders"): its key's short fingerprint, and a flag when the name is known with another key. A name met for the
/// first time is recorded, as ssh records a new host.
struct SenderCheck {
    let settings: Settings
    private(set) var known: KnownSenders
    private var changed = false

    init(settings: Settings) {
        self.settings = settings
        // An unreadable file is reported by `chest senders`; here it must not stop a list or a read.
        known = (try? KnownSendersFile.load(settings)) ?? KnownSenders()
    }

    /// The note for a sender: nil for your own messages and messages without a seal.
    mutating func note(from name: String, key: String?, sentByYou: Bool) -> Note? {
        guard !sentByYou, let key else { return nil }
        let verdict = known.meet(name, key: key, at: Date())
        if verdict == .new { changed = true }
        return Note(fingerprint: KeyFingerprint.short(key), verdict: verdict, name: name)
    }

    /// Keeps what was met for the first time; a failure to write is only reported.
    func save() {
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

        /// The name is known with another key, or reads as a known name that has another key.
        var isChanged: Bool {
            switch verdict {
            case .changed, .lookalike: true
            case .new, .known: false
            }
        }

        /// The known name this one reads as under another key, for the JSON's `lookalikeOf`; nil for any other verdict.
        var lookalikeOf: String? {
            if case let .lookalike(known, _) = verdict { known } else { nil }
        }

        /// What follows the warning: how to trust a key that really changed; nothing for a lookalike, whose name is
        /// not the one known.
        func advice(_ id: MessageID) -> String {
            if case .lookalike = verdict { return "" }
            return "; if the sender really changed keys: chest senders trust \(id.short)"
        }

        /// What `list` says after the title of a flagged sender.
        var flagWords: String? {
            switch verdict {
            case .changed: KnownSenders.changedWords(name)
            case let .lookalike(known, _): KnownSenders.lookalikeWords(name, of: known)
            case .new, .known: nil
            }
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
    }
}
