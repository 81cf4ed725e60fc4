/// One team of a hunt (docs/HUNTS.md "Hunt files"): its broker login and the key that signs its messages.
package struct HuntTeam: Codable, Hashable, Sendable {
    /// A topic level and an MQTT user name.
    package var name: TeamName
    /// The team's MQTT password, random, made by `chest hunt team add`.
    package var password: String
    /// Ed25519, base64: signs this team's messages.
    package var publicKey: String
    /// Ed25519 secret key (64 bytes), base64: in the organiser's file and the team's join file only.
    package var secretKey: String?
    /// The team's colour on the board, as the organiser set it (`hunt team add --colour`): a colour name or `#rrggbb`.
    package var colour: String?

    package init(name: TeamName, password: String, publicKey: String, secretKey: String?, colour: String? = nil) {
        self.name = name
        self.password = password
        self.publicKey = publicKey
        self.secretKey = secretKey
        self.colour = colour
    }

    /// Names that are not a safe topic level are refused, and so are "release" (it would make
    /// `chest/<hunt>/release/receipt` ambiguous) and "organiser" (the organiser's sender name).
    package static func isValidName(_ name: String) -> Bool {
        HuntTopic.isValidLevel(name) && name != "release" && name != HuntEnvelope.organiserSender
    }
}
