/// One team of a hunt (docs/HUNTS.md "Hunt files"): its broker login and the key that signs its messages.
package struct HuntTeam: Codable, Hashable, Sendable {
    /// A topic level and an MQTT user name, as written (docs/HUNTS.md "Team names").
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

    /// Names outside the rule of `TeamName.isWellFormed` are refused, and so are "release" (it would make
    /// `chest/<hunt>/release/receipt` ambiguous) and "organiser" (the organiser's sender name).
    package static func isValidName(_ name: String) -> Bool {
        TeamName.isWellFormed(name) && !reservedNames.contains(name)
    }

    /// The names no team can have; a name that reads as one of them is refused too (`imitated`).
    package static let reservedNames = ["release", HuntEnvelope.organiserSender]

    /// The confusable skeleton (`Confusables.skeleton`, UTS #39) of each of `names` and of the reserved names, each
    /// with the first name that has it: what `imitated` looks a new name up in.
    package static func skeletons(of names: [String]) -> [String: String] {
        var skeletons: [String: String] = [:]
        for name in reservedNames + names {
            let skeleton = Confusables.skeleton(name)
            if skeletons[skeleton] == nil { skeletons[skeleton] = name }
        }
        return skeletons
    }

    /// The name (of `skeletons`, the hunt's teams and the reserved names) that `name` would pass for, another name
    /// with its confusable skeleton, if any: "Rеd" with a Cyrillic е passes for "Red" (docs/HUNTS.md "Team names").
    package static func imitated(by name: String, in skeletons: [String: String]) -> String? {
        skeletons[Confusables.skeleton(name)].flatMap { $0.utf8.elementsEqual(name.utf8) ? nil : $0 }
    }
}
