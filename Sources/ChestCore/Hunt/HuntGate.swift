/// What a receiver makes of an envelope before believing it (docs/HUNTS.md "Messages on the broker"): it must
/// be for this hunt, signed by the key the hunt file knows for its sender, sent on its own topic, and new. Pure:
/// the signature check's result is passed in (`HuntSigner.isValid`, in ChestSeal).
package struct HuntGate: Sendable {
    package enum Refusal: String, Codable, Sendable, CaseIterable {
        /// Not a chest hunt message at all (counted by `countMalformed`).
        case malformed
        case otherHunt
        /// No key is known for the sender, or the envelope names another key than the hunt file's.
        case unknownKey
        case badSignature
        /// The sender or kind does not match the topic: a team posing as another, a status on a receipt topic.
        case wrongTopic
        case replayed
        /// Not the gate's: the board's, for a receipt or a hint request it received after the hunt's end
        /// (docs/HUNTS.md "The hunt's start and end"); counted with the gate's so the organiser sees it.
        case afterEnd
        /// The board's too: a receipt or a hint request it received before the hunt's start.
        case beforeStart
        /// The board's too: received after the team's own time ran out (docs/HUNTS.md "A clock for each team").
        case afterLimit
        /// The board's too: more than a team may send (`TeamRate`), refused before it was checked.
        case tooFast
        /// The board's too: a message within its team's rate that came while the board's queue was full (the board
        /// was behind by more than it keeps waiting), dropped before it was checked (docs/HUNTS.md "A team that
        /// floods"); the broker keeps it retained, and hands it over again on the board's next subscription.
        case queueFull
    }

    package enum Verdict: Hashable, Sendable {
        case accepted
        case refused(Refusal)
    }

    /// What has been accepted from each sender, for replay checks; Codable so the board keeps it across restarts.
    package struct Seen: Codable, Hashable, Sendable {
        package struct Sender: Codable, Hashable, Sendable {
            /// Receipt ids accepted, ascending.
            package var receipts: [UInt64] = []
            /// The highest status id accepted from the team's own topic, and from each device's (docs/HUNTS.md
            /// "Several devices in one team"): each device counts its sessions itself.
            package var highestStatus: UInt64?
            package var deviceStatus: [String: UInt64]?
            /// Release name → the id and key of the last release accepted under it.
            package var releases: [String: AcceptedRelease] = [:]
            /// A team's hint request ids accepted, ascending (absent until one was).
            package var hintRequests: [UInt64]?
            /// `<team>/<hint-id>` → the id and sealed key of the last hint the organiser gave under it.
            package var hints: [String: AcceptedRelease]?
            /// The organiser's adjustment ids accepted, ascending (absent until one was).
            package var adjustments: [UInt64]?
            /// The id of the newest schedule accepted (the organiser's).
            package var schedule: UInt64?
            /// The words to the teams accepted, by id → text (the organiser's).
            package var said: [UInt64: String]?
            /// A team's question ids accepted, ascending (absent until one was).
            package var questions: [UInt64]?
            /// The words told to one team accepted, by `<team>/<id>` → sealed text (the organiser's).
            package var told: [String: String]?
            /// A team's submission ids accepted, ascending (absent until one was; docs/HUNTS.md "Missions").
            package var submissions: [UInt64]?
            /// The verdicts accepted, by `<team>/<id>` → what they judged and gave (the organiser's).
            package var verdicts: [String: String]?
            package init() {}
        }

        package struct AcceptedRelease: Codable, Hashable, Sendable {
            package var id: UInt64
            /// The release's key, or the hint's sealed key, base64.
            package var key: String
        }

        package var senders: [String: Sender] = [:]
        package init() {}
    }

    package let hunt: HuntID
    /// Sender name → its public key, base64.
    package let keys: [String: String]
    package var seen: Seen
    package private(set) var refused: [Refusal: Int] = [:]

    /// Knows the organiser's key and every team key in the file (all teams in the organiser's file, the
    /// reader's own team in a join file).
    package init(hunt: HuntFile, seen: Seen = Seen()) {
        self.hunt = hunt.id
        var keys = [HuntEnvelope.organiserSender: hunt.organiser]
        for team in hunt.teams { keys[team.name.rawValue] = team.publicKey }
        self.keys = keys
        self.seen = seen
    }

    /// The verdict on `envelope`, which arrived on `topic`; counts refusals, and remembers what it accepts.
    ///
    /// Replays: a receipt id already accepted from that sender is refused (QoS 1 may deliver twice, the outbox
    /// may send again after a crash before the broker's acknowledgement). A status is accepted when its id is
    /// above every status accepted from that sender, so an old retained status cannot overwrite a newer one
    /// (`TeamStatus` says how ids order a connection's statuses and its last will), or when it is the status in
    /// force heard again (the broker hands retained messages to every new subscription, so a restarted board
    /// hears it again; it restates what the board knows). A release is accepted again when it is the one already accepted under its name (same id, same key):
    /// the broker hands the retained release to every new subscription, and a reader that restarted needs it
    /// again; a release key is public once released, so hearing it again gives nothing away. A newer release
    /// (higher id) under the same name replaces the old one; an older one, or another key under an id already
    /// used, is refused as replayed.
    package mutating func admit(_ envelope: HuntEnvelope, topic: String, signatureValid: Bool) -> Verdict {
        let verdict = judge(envelope, topic: topic, signatureValid: signatureValid)
        if case .refused(let refusal) = verdict { refused[refusal, default: 0] += 1 }
        return verdict
    }

    /// Counts a payload that could not be decoded at all.
    package mutating func countMalformed() {
        refused[.malformed, default: 0] += 1
    }

    /// Counts a refusal heard again from the board's journal, where only the refusal was kept.
    package mutating func count(_ refusal: Refusal, times: Int = 1) {
        refused[refusal, default: 0] += times
    }

    private mutating func judge(_ envelope: HuntEnvelope, topic: String, signatureValid: Bool) -> Verdict {
        guard envelope.hunt == hunt else { return .refused(.otherHunt) }
        guard let key = keys[envelope.sender], key == envelope.key else { return .refused(.unknownKey) }
        guard signatureValid else { return .refused(.badSignature) }
        let organiser = envelope.sender == HuntEnvelope.organiserSender
        switch (HuntTopic.parse(topic, hunt: hunt), envelope.body) {
        case (.receipt(let team, _)?, .receipt) where team == envelope.sender: break
        case (.status(let team, let device)?, .status(let status))
        where team == envelope.sender && status.device == device:
            break
        case (.release(let name)?, .release(let release)) where organiser && release.name == name: break
        case (.hintRequest(let team, _)?, .hintRequest) where team == envelope.sender: break
        case (.hint(let team, let hintID)?, .hint(let hint))
        where organiser && hint.team == team && hint.hintID == hintID: break
        case (.adjust(let id)?, .adjust) where organiser && envelope.id == id: break
        case (.schedule?, .schedule) where organiser: break
        case (.said(let id)?, .said) where organiser && id == envelope.id: break
        case (.start(let team)?, .start(let start)) where organiser && start.team == team: break
        case (.ask(let team, _)?, .ask) where team == envelope.sender: break
        case (.told(let team, let id)?, .told(let word)) where organiser && word.team == team && id == envelope.id:
            break
        case (.submit(let team, let id)?, .submit) where team == envelope.sender && id == envelope.id: break
        case (.verdict(let team, let id)?, .verdict(let verdict))
        where organiser && verdict.team == team && id == envelope.id:
            break
        default: return .refused(.wrongTopic)
        }
        var sender = seen.senders[envelope.sender] ?? Seen.Sender()
        switch envelope.body {
        case .receipt:
            let index = sender.receipts.insertionIndex(of: envelope.id)
            guard index == sender.receipts.endIndex || sender.receipts[index] != envelope.id else {
                return .refused(.replayed)
            }
            sender.receipts.insert(envelope.id, at: index)
        case let .status(status):
            let highest = status.device.map { sender.deviceStatus?[$0] } ?? sender.highestStatus
            if envelope.id == highest { return .accepted }
            guard envelope.id > (highest ?? 0) else { return .refused(.replayed) }
            if let device = status.device {
                sender.deviceStatus = (sender.deviceStatus ?? [:]).merging([device: envelope.id]) { $1 }
            } else {
                sender.highestStatus = envelope.id
            }
        case let .release(release):
            if let accepted = sender.releases[release.name] {
                if accepted.id == envelope.id && accepted.key == release.key.base64 { return .accepted }
                guard envelope.id > accepted.id else { return .refused(.replayed) }
            }
            sender.releases[release.name] = Seen.AcceptedRelease(id: envelope.id, key: release.key.base64)
        case .hintRequest:
            guard Self.insert(envelope.id, into: &sender.hintRequests) else { return .refused(.replayed) }
        case .ask:
            guard Self.insert(envelope.id, into: &sender.questions) else { return .refused(.replayed) }
        case let .told(word):
            // As a word to all teams: heard again (retained) it is accepted, and the engine tells each id once;
            // another box under an id already used is a replay.
            let name = word.team + "/" + String(envelope.id)
            if let known = sender.told?[name] { return known == word.sealed ? .accepted : .refused(.replayed) }
            sender.told = (sender.told ?? [:]).merging([name: word.sealed]) { $1 }
        case .submit:
            guard Self.insert(envelope.id, into: &sender.submissions) else { return .refused(.replayed) }
        case let .verdict(verdict):
            // As a word told to one team: heard again (retained) it is accepted, and each is taken in once; another
            // verdict under an id already used is a replay.
            let name = verdict.team + "/" + String(envelope.id)
            let summary = "\(verdict.message)/\(verdict.page)/\(verdict.digest)/\(verdict.accepted)/\(verdict.points)"
            if let known = sender.verdicts?[name] { return known == summary ? .accepted : .refused(.replayed) }
            sender.verdicts = (sender.verdicts ?? [:]).merging([name: summary]) { $1 }
        case .adjust:
            guard Self.insert(envelope.id, into: &sender.adjustments) else { return .refused(.replayed) }
        case let .hint(hint):
            // As a release: the retained hint is heard again on every subscription; a newer one replaces it.
            let name = hint.team + "/" + hint.hintID
            if let accepted = sender.hints?[name] {
                if accepted.id == envelope.id && accepted.key == hint.sealed { return .accepted }
                guard envelope.id > accepted.id else { return .refused(.replayed) }
            }
            sender.hints = (sender.hints ?? [:]).merging([name: Seen.AcceptedRelease(id: envelope.id, key: hint.sealed)]
            ) { $1 }
        case let .start(start):
            // As a hint: retained, heard again on every subscription; a newer one replaces it.
            let name = "_start/" + start.team
            if let accepted = sender.hints?[name] {
                if accepted.id == envelope.id && accepted.key == start.sealed { return .accepted }
                guard envelope.id > accepted.id else { return .refused(.replayed) }
            }
            sender.hints = (sender.hints ?? [:]).merging([
                name: Seen.AcceptedRelease(id: envelope.id, key: start.sealed)
            ]) { $1 }
        case .schedule:
            // The one in force heard again (retained, on every connection) restates it; an older one is a replay.
            if envelope.id == sender.schedule { return .accepted }
            guard envelope.id > (sender.schedule ?? 0) else { return .refused(.replayed) }
            sender.schedule = envelope.id
        case let .said(said):
            // Heard again (retained) it is accepted: the engine announces each id once. Another text under an id
            // already used is a replay.
            if let known = sender.said?[envelope.id] { return known == said.text ? .accepted : .refused(.replayed) }
            sender.said = (sender.said ?? [:]).merging([envelope.id: said.text]) { $1 }
        }
        seen.senders[envelope.sender] = sender
        return .accepted
    }
}

extension HuntGate {
    /// Inserts `id` into an ascending list; false when it was there already (a replay).
    static func insert(_ id: UInt64, into ids: inout [UInt64]?) -> Bool {
        var list = ids ?? []
        let index = list.insertionIndex(of: id)
        guard index == list.endIndex || list[index] != id else { return false }
        list.insert(id, at: index)
        ids = list
        return true
    }
}

extension Array where Element == UInt64 {
    /// Where `value` is or would go in this ascending array (binary search).
    func insertionIndex(of value: UInt64) -> Int {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
