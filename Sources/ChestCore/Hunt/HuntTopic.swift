/// The MQTT topics of a hunt (docs/HUNTS.md "Messages on the broker"). Builders expect names already checked
/// (`HuntTeam.isValidName`, `HuntRelease.isValidName`); `parse` trusts nothing.
package enum HuntTopic {
    /// One topic per receipt, retained: a board that subscribes late, or for the first time, still gets every receipt.
    package static func receipt(hunt: HuntID, team: String, id: UInt64) -> String {
        "chest/\(hunt)/\(team)/receipt/\(id)"
    }
    /// A team's status, retained: one topic per device of the team (docs/HUNTS.md "Several devices in one team"),
    /// or the team's own for a chestd that names no device.
    package static func status(hunt: HuntID, team: String, device: String? = nil) -> String {
        "chest/\(hunt)/\(team)/status" + (device.map { "/" + $0 } ?? "")
    }
    package static func release(hunt: HuntID, name: String) -> String { "chest/\(hunt)/release/\(name)" }
    /// A team's hint request, one topic per request (its outbox id), retained like receipts (docs/HUNTS.md "Hints").
    package static func hintRequest(hunt: HuntID, team: String, id: UInt64) -> String {
        "chest/\(hunt)/\(team)/hint/\(id)"
    }
    /// A hint given to one team, retained, one topic per hint of a page: answering again replaces it.
    package static func hint(hunt: HuntID, team: String, hintID: String) -> String {
        "chest/\(hunt)/\(HuntEnvelope.organiserSender)/hint/\(team)/\(hintID)"
    }
    /// What a team's chestd subscribes to for the hints given to it.
    package static func hints(hunt: HuntID, team: String) -> String { hint(hunt: hunt, team: team, hintID: "+") }
    /// A hint's topic level: the message ID's first 24 hex digits, the page and the hint, `<message>-<page>-<hint>`.
    package static func hintID(message: String, page: Int, hint: Int) -> String {
        "\(message.prefix(24))-\(page)-\(hint)"
    }
    /// The organiser's adjustment of a team's points (docs/HUNTS.md "Adjustments").
    package static func adjust(hunt: HuntID, id: UInt64) -> String { "chest/\(hunt)/organiser/adjust/\(id)" }
    /// The organiser's start and end of the hunt: one topic, retained, so the newest is what every team hears.
    package static func schedule(hunt: HuntID) -> String { "chest/\(hunt)/organiser/schedule" }
    /// The start key sealed to one team at its own start, retained (docs/HUNTS.md "A clock for each team").
    package static func start(hunt: HuntID, team: String) -> String {
        "chest/\(hunt)/\(HuntEnvelope.organiserSender)/start/\(team)"
    }
    /// One topic per word to the teams, retained, so a team that joins late still hears it.
    package static func said(hunt: HuntID, id: UInt64) -> String { "chest/\(hunt)/organiser/say/\(id)" }
    /// What a reader subscribes to for the organiser's words.
    package static func saying(hunt: HuntID) -> String { "chest/\(hunt)/organiser/say/+" }
    /// A team's question to the organiser, one topic per question (its outbox id), retained like hint requests
    /// (docs/HUNTS.md "A team's question, a word to one team").
    package static func ask(hunt: HuntID, team: String, id: UInt64) -> String { "chest/\(hunt)/\(team)/ask/\(id)" }
    /// The organiser's word to one team, sealed to it, retained: not below `say/`, which every team reads
    /// (examples/mosquitto/hunt.acl lets a team read only its own `told/<team>/`).
    package static func told(hunt: HuntID, team: String, id: UInt64) -> String {
        "chest/\(hunt)/\(HuntEnvelope.organiserSender)/told/\(team)/\(id)"
    }
    /// What a team's chestd subscribes to for the words told to it alone.
    package static func toldTo(hunt: HuntID, team: String) -> String {
        "chest/\(hunt)/\(HuntEnvelope.organiserSender)/told/\(team)/+"
    }
    /// A team's submission for a mission page (docs/HUNTS.md "Missions"), one topic per submission (its outbox id),
    /// retained like a question.
    package static func submit(hunt: HuntID, team: String, id: UInt64) -> String {
        "chest/\(hunt)/\(team)/submit/\(id)"
    }
    /// The organiser's verdict on a team's submission, retained, where only that team reads (examples/mosquitto/hunt.acl).
    package static func verdict(hunt: HuntID, team: String, id: UInt64) -> String {
        "chest/\(hunt)/\(HuntEnvelope.organiserSender)/verdict/\(team)/\(id)"
    }
    /// What a team's chestd subscribes to for the verdicts on its submissions.
    package static func verdicts(hunt: HuntID, team: String) -> String {
        "chest/\(hunt)/\(HuntEnvelope.organiserSender)/verdict/\(team)/+"
    }
    /// Where OwnTracks' recorder and frontends look for transition events.
    package static func ownTracksEvent(team: String, device: String) -> String { "owntracks/\(team)/\(device)/event" }
    /// What the board subscribes to.
    package static func all(hunt: HuntID) -> String { "chest/\(hunt)/#" }
    /// The start of every topic of the hunt below it, `chest/<hunt>/`, for `teamLevel`.
    package static func prefix(hunt: HuntID) -> String { "chest/\(hunt)/" }

    /// The level that names a team in a topic of the hunt whose `prefix` it is: the third, `chest/<hunt>/<level>/…`,
    /// whatever follows it, well formed or not; nil for a topic not below `prefix`, and for the organiser's own
    /// (`organiser/…`, `release/…`). A team writes only below its own name (examples/mosquitto/hunt.acl), so all that
    /// arrives there is that team's doing (docs/HUNTS.md "A team that floods"). Read in place, without splitting: the
    /// board's network thread asks it of every message a flood brings.
    package static func teamLevel(_ topic: String, under prefix: String) -> Substring? {
        guard topic.utf8.starts(with: prefix.utf8) else { return nil }
        let rest = topic.utf8.dropFirst(prefix.utf8.count)
        let level = Substring(rest.prefix { $0 != UInt8(ascii: "/") })
        return level == HuntEnvelope.organiserSender || level == "release" ? nil : level
    }
    /// What a reader subscribes to.
    package static func releases(hunt: HuntID) -> String { "chest/\(hunt)/release/+" }

    package enum Parsed: Hashable, Sendable {
        case receipt(team: String, id: UInt64)
        case status(team: String, device: String? = nil)
        case release(name: String)
        case hintRequest(team: String, id: UInt64)
        case hint(team: String, hintID: String)
        case adjust(id: UInt64)
        case schedule
        case said(id: UInt64)
        case start(team: String)
        case ask(team: String, id: UInt64)
        case told(team: String, id: UInt64)
        case submit(team: String, id: UInt64)
        case verdict(team: String, id: UInt64)
    }

    /// What a topic of this hunt carries; nil for another hunt, another shape, or a level that is not a valid name.
    package static func parse(_ topic: String, hunt: HuntID) -> Parsed? {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        func id(_ level: Substring) -> UInt64? {
            level.utf8.allSatisfy({ (0x30...0x39).contains($0) }) && level.first != "0" ? UInt64(level) : nil
        }
        guard levels.count >= 4, levels[0] == "chest", levels[1] == hunt.rawValue else { return nil }
        let organiser = levels[2] == HuntEnvelope.organiserSender
        if levels.count == 5, organiser, levels[3] == "start", HuntTeam.isValidName(String(levels[4])) {
            return .start(team: String(levels[4]))
        }
        if levels.count == 5, !organiser, levels[3] == "status", HuntTeam.isValidName(String(levels[2])),
            isValidLevel(String(levels[4]))
        {
            return .status(team: String(levels[2]), device: String(levels[4]))
        }
        if levels.count == 5, let id = id(levels[4]) {
            if organiser {
                switch levels[3] {
                case "adjust": return .adjust(id: id)
                case "say": return .said(id: id)
                default: return nil
                }
            }
            guard HuntTeam.isValidName(String(levels[2])) else { return nil }
            switch levels[3] {
            case "receipt": return .receipt(team: String(levels[2]), id: id)
            case "hint": return .hintRequest(team: String(levels[2]), id: id)
            case "ask": return .ask(team: String(levels[2]), id: id)
            case "submit": return .submit(team: String(levels[2]), id: id)
            default: return nil
            }
        }
        if levels.count == 6, organiser, levels[3] == "hint", HuntTeam.isValidName(String(levels[4])),
            isValidLevel(String(levels[5]))
        {
            return .hint(team: String(levels[4]), hintID: String(levels[5]))
        }
        if levels.count == 6, organiser, levels[3] == "told", HuntTeam.isValidName(String(levels[4])),
            let id = id(levels[5])
        {
            return .told(team: String(levels[4]), id: id)
        }
        if levels.count == 6, organiser, levels[3] == "verdict", HuntTeam.isValidName(String(levels[4])),
            let id = id(levels[5])
        {
            return .verdict(team: String(levels[4]), id: id)
        }
        guard levels.count == 4 else { return nil }
        let (middle, last) = (String(levels[2]), String(levels[3]))
        if middle == "release" { return HuntRelease.isValidName(last) ? .release(name: last) : nil }
        if middle == HuntEnvelope.organiserSender { return last == "schedule" ? .schedule : nil }
        guard HuntTeam.isValidName(middle) else { return nil }
        switch last {
        case "status": return .status(team: middle)
        default: return nil
        }
    }

    /// `[A-Za-z0-9_-]{1,32}`: no MQTT wildcard, separator, NUL or anything a shell or a terminal would read.
    package static func isValidLevel(_ text: String) -> Bool {
        (1...32).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            }
    }
}
