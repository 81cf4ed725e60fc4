/// The MQTT topics of a hunt (docs/HUNTS.md "Messages on the broker"). Builders expect names already checked
/// (`HuntTeam.isValidName`, `HuntRelease.isValidName`); `parse` trusts nothing.
public enum HuntTopic {
    /// One topic per receipt, retained: a board that subscribes late, or for the first time, still gets every receipt.
    public static func receipt(hunt: String, team: String, id: UInt64) -> String { "chest/\(hunt)/\(team)/receipt/\(id)" }
    public static func status(hunt: String, team: String) -> String { "chest/\(hunt)/\(team)/status" }
    public static func release(hunt: String, name: String) -> String { "chest/\(hunt)/release/\(name)" }
    /// The organiser's start and end of the hunt: one topic, retained, so the newest is what every team hears.
    public static func schedule(hunt: String) -> String { "chest/\(hunt)/organiser/schedule" }
    /// One topic per word to the teams, retained, so a team that joins late still hears it.
    public static func said(hunt: String, id: UInt64) -> String { "chest/\(hunt)/organiser/say/\(id)" }
    /// What a reader subscribes to for the organiser's words.
    public static func saying(hunt: String) -> String { "chest/\(hunt)/organiser/say/+" }
    /// Where OwnTracks' recorder and frontends look for transition events.
    public static func ownTracksEvent(team: String, device: String) -> String { "owntracks/\(team)/\(device)/event" }
    /// What the board subscribes to.
    public static func all(hunt: String) -> String { "chest/\(hunt)/#" }
    /// What a reader subscribes to.
    public static func releases(hunt: String) -> String { "chest/\(hunt)/release/+" }

    public enum Parsed: Hashable, Sendable {
        case receipt(team: String, id: UInt64)
        case status(team: String)
        case release(name: String)
        case schedule
        case said(id: UInt64)
    }

    /// What a topic of this hunt carries; nil for another hunt, another shape, or a level that is not a valid name.
    public static func parse(_ topic: String, hunt: String) -> Parsed? {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        if levels.count == 5, levels[0] == "chest", levels[1] == hunt, levels[3] == "receipt",
           HuntTeam.isValidName(String(levels[2])), levels[4].utf8.allSatisfy({ (0x30...0x39).contains($0) }),
           levels[4].first != "0", let id = UInt64(levels[4]) {
            return .receipt(team: String(levels[2]), id: id)
        }
        if levels.count == 5, levels[0] == "chest", levels[1] == hunt, levels[2] == "organiser", levels[3] == "say",
           levels[4].utf8.allSatisfy({ (0x30...0x39).contains($0) }), levels[4].first != "0", let id = UInt64(levels[4]) {
            return .said(id: id)
        }
        guard levels.count == 4, levels[0] == "chest", levels[1] == hunt else { return nil }
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
    static func isValidLevel(_ text: String) -> Bool {
        (1...32).contains(text.utf8.count) && text.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }
}
