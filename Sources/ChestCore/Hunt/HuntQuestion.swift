import FoundationEssentials

/// A team's question to the organiser (`chest hunt ask`, docs/HUNTS.md "A team's question, a word to one team"): the
/// body of an `ask` envelope on `chest/<hunt>/<team>/ask/<id>`, signed by the team's key, sent through its outbox.
package struct HuntQuestion: Codable, Hashable, Sendable {
    /// 1 to 500 printable characters (line breaks allowed), as a word to the teams.
    package var text: String

    package init(text: String) {
        self.text = text
    }

    /// Why `text` cannot be asked, in a sentence; nil when it can.
    package static func problem(_ text: String) -> String? { HuntSaid.problem(text, what: "the question") }
}

/// The organiser's word to one team (`chest hunt say --team`, docs/HUNTS.md "A team's question, a word to one team"):
/// the body of a `told` envelope on `chest/<hunt>/organiser/told/<team>/<id>`, the text sealed to the team's key
/// (every device that joined with the team's join file opens it; no other team can), signed by the organiser.
package struct HuntTeamWord: Codable, Hashable, Sendable {
    /// The most bytes of UTF-8 a sealed word may hold: 500 characters of the longest a text could reasonably bring.
    package static let maximumBytes = 8 << 10
    /// What a sealed box adds to what it seals (libsodium's `crypto_box_SEALBYTES`).
    static let sealOverhead = 48

    /// The team it is told to.
    package var team: String
    /// Base64 of the sealed box (`crypto_box_seal`) of the text's UTF-8 to the X25519 form of the team's key.
    package var sealed: String

    package init(team: String, sealed: String) {
        self.team = team
        self.sealed = sealed
    }

    var isValid: Bool {
        guard HuntTeam.isValidName(team), let box = Data(base64Encoded: sealed) else { return false }
        return (Self.sealOverhead + 1...Self.sealOverhead + Self.maximumBytes).contains(box.count)
    }

    /// The text a box opened to, when it is one a word to the teams may be; nil otherwise.
    package static func text(opened: [UInt8]) -> String? {
        guard opened.count <= maximumBytes, let text = String(validating: opened, as: UTF8.self),
            HuntSaid.problem(text) == nil
        else { return nil }
        return text
    }
}
