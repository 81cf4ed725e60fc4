/// A team's request for a page's hint (docs/HUNTS.md "Hints"): the body of a `hintRequest` envelope, sent by the
/// team's chestd on `chest/<hunt>/<team>/hint/<id>` and answered by the organiser's board.
package struct HuntHintRequest: Codable, Hashable, Sendable {
    /// The message's ID.
    package var message: MessageID
    /// 1-based.
    package var page: Int
    /// The hint asked for, 1-based, in the page's order.
    package var hint: Int

    package init(message: MessageID, page: Int, hint: Int) {
        self.message = message
        self.page = page
        self.hint = hint
    }

    private enum CodingKeys: String, CodingKey { case message, page, hint }

    /// A message that is not a message ID is refused in the sentence `HuntEnvelope.decode` says of a malformed request.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let message = MessageID(try container.decode(String.self, forKey: .message)) else {
            throw HuntError(Self.malformed)
        }
        self.message = message
        page = try container.decode(Int.self, forKey: .page)
        hint = try container.decode(Int.self, forKey: .hint)
    }

    static let malformed = "the hint request's message, page or hint is malformed"

    var isValid: Bool { (1...Message.maximumPages).contains(page) && (1...Page.maximumHints).contains(hint) }
}

/// A hint's key given by the organiser's board to one team (docs/HUNTS.md "Hints"): the body of a `hint` envelope on
/// `chest/<hunt>/organiser/hint/<team>/<hint-id>`, the key sealed to the team's reader key (ChestSeal's `HintSeal`).
package struct HuntHint: Codable, Hashable, Sendable {
    /// The team it is given to, and charged.
    package var team: String
    package var message: String
    package var page: Int
    package var hint: Int
    /// What the board charged the team for it; 0 for a free hint.
    package var cost: Int
    /// Base64 of the sealed box (`crypto_box_seal`) of the hint's 32-byte key to the team's reader key.
    package var sealed: String

    package init(team: String, message: String, page: Int, hint: Int, cost: Int, sealed: String) {
        self.team = team
        self.message = message
        self.page = page
        self.hint = hint
        self.cost = cost
        self.sealed = sealed
    }

    /// The hint's topic level: `HuntTopic.hintID`.
    package var hintID: String { HuntTopic.hintID(message: message, page: page, hint: hint) }

    /// A sealed box of a 32-byte key: the key, an ephemeral X25519 public key (32) and a tag (16).
    package static let sealedBytes = 80

    var isValid: Bool {
        HuntTeam.isValidName(team)
            && MessageID(message).map { HuntHintRequest(message: $0, page: page, hint: hint).isValid } == true
            && (0...Page.maximumHintCost).contains(cost) && HuntFile.base64(sealed, bytes: Self.sealedBytes)
    }
}
