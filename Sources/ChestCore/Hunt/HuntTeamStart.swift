/// The hunt's start key given to one team at its own start (docs/HUNTS.md "A clock for each team"): the body of a
/// `start` envelope on `chest/<hunt>/organiser/start/<team>`, the key sealed to the team's key (every device that
/// joined with the team's join file opens it; no other team can), signed by the organiser.
package struct HuntTeamStart: Codable, Hashable, Sendable {
    /// The team it starts.
    package var team: String
    /// Base64 of the sealed box (`crypto_box_seal`) of the 32-byte start key to the X25519 form of the team's key.
    package var sealed: String

    package init(team: String, sealed: String) {
        self.team = team
        self.sealed = sealed
    }

    var isValid: Bool { HuntTeam.isValidName(team) && HuntFile.base64(sealed, bytes: HuntHint.sealedBytes) }
}
