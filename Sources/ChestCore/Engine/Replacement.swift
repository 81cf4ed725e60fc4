import struct FoundationEssentials.Date

/// A newer version of a message already in the chest: a quest rebuilt with `--keep-ids` keeps its messages' IDs, and
/// the reader's import of it replaces the older version from the same sender (docs/QUEST.md "Rebuilding a quest").
///
/// What the reader earned on the older version is kept where it still means the same thing, and nothing more:
/// - a latched lock stays latched when the new version has the same lock (same page, set, type and value);
/// - an open page stays open when the new version still has that page with the same lock sets. A page in the clear
///   then shows its new text; a sealed page keeps the text it opened with, since the new text is sealed under a key
///   the reader never derived, and it no longer lists files: the new version's are sealed under a new key too;
/// - a page whose locks changed is locked again (its unchanged locks stay latched);
/// - wrong PIN attempts, the arrival time, the chest it is in and delivery marks are kept; cells tried for sealed
///   places are forgotten, since the new version's keys are new.
package enum Replacement {
    /// Whether `new` replaces `old`: both sealed by the same key, and `new` composed later.
    package static func replaces(_ new: Message, _ old: Message) -> Bool {
        guard let seal = new.seal, let oldSeal = old.seal, seal.isMade(by: oldSeal.publicKey) else { return false }
        return new.created > old.created
    }

    /// The state the new version starts with.
    package static func state(from old: StoredMessage, for new: Message) -> MessageState {
        var state = MessageState(ingestedAt: old.state.ingestedAt)
        state.pin = old.state.pin
        state.latched = old.state.latched.filter { key, _ in
            old.message.lock(at: key).map { same($0, new.lock(at: key)) } ?? false
        }
        state.openPages = old.state.openPages.filter { keepsOpen(page: $0.page, old.message, new) }.map { page in
            var page = page
            page.content?.attachments = nil
            page.content?.attachmentsKey = nil
            return page
        }
        state.seal.keptPINs = old.state.seal.keptPINs.filter { key, _ in Int(key).map { $0 <= new.pages.count } ?? false
        }
        return state
    }

    /// Whether an open page of the old version is the same page, by its locks, in the new one.
    static func keepsOpen(page number: Int, _ old: Message, _ new: Message) -> Bool {
        guard new.pages.indices.contains(number - 1), old.pages.indices.contains(number - 1) else { return false }
        let before = old.pages[number - 1]
        let after = new.pages[number - 1]
        return LockSetName.allCases.allSatisfy { set in
            before[set].count == after[set].count && zip(before[set], after[set]).allSatisfy { same($0, $1) }
        }
    }

    /// Whether two locks ask for the same thing. A format 1 PIN is a hash salted anew at every build, so two PINs
    /// count as the same lock: a changed PIN cannot be told from the file.
    static func same(_ lock: Lock, _ other: Lock?) -> Bool {
        if case .pin = lock, case .pin? = other { return true }
        return lock == other
    }

    /// "page 3", "pages 1, 2".
    static func pages(_ numbers: [Int]) -> String {
        (numbers.count == 1 ? "page " : "pages ") + numbers.map(String.init).joined(separator: ", ")
    }

    /// What the import tells the reader: "replaces the version of …; pages 1, 2 stay open; page 3 changed and is
    /// locked again".
    package static func sentence(old: StoredMessage, new: Message, state: MessageState) -> String {
        var parts = [
            "replaces the version of \(ISO8601.string(old.message.created)) (\(old.chest == .saved ? "saved" : "regular") chest)"
        ]
        let kept = state.openPageNumbers
        let before = old.state.openPageNumbers
        if !kept.isEmpty { parts.append(pages(kept) + (kept.count == 1 ? " stays open" : " stay open")) }
        let closed = before.filter { !kept.contains($0) }
        if !closed.isEmpty {
            parts.append(pages(closed) + (closed.count == 1 ? " changed and is" : " changed and are") + " locked again")
        }
        return parts.joined(separator: "; ")
    }
}

extension Message {
    /// The lock a key names: its page's set's lock of that type.
    func lock(at key: LockKey) -> Lock? {
        guard pages.indices.contains(key.page - 1) else { return nil }
        return pages[key.page - 1][key.set].first { $0.kind == key.kind }
    }
}
