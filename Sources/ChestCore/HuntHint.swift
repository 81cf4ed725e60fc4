/// A team's request for a page's hint (docs/HUNTS.md "Hints"): kind `hintRequest`, sent by the team's chestd on
/// `chest/<hunt>/<team>/hint/<id>`, signed by the team key. The board answers it with a `HuntHint`.
public struct HuntHintRequest: Codable, Hashable, Sendable {
    /// The message's ID.
    public var message: String
    /// The page, from 1.
    public var page: Int
    /// The hint asked for, from 1, in the page's order.
    public var hint: Int

    public init(message: String, page: Int, hint: Int) {
        self.message = message
        self.page = page
        self.hint = hint
    }
}

/// The board's answer to a `HuntHintRequest` (docs/HUNTS.md "Hints"): kind `hint`, on
/// `chest/<hunt>/organiser/hint/<team>/<hint-id>` (`hintID`), signed by the organiser. `sealed` is the hint's 32-byte key sealed
/// to the team's reader key (a libsodium sealed box, ChestSeal's `HintSeal`), base64: only that reader opens it.
public struct HuntHint: Codable, Hashable, Sendable {
    public var team: String
    public var message: String
    public var page: Int
    public var hint: Int
    /// The points the board subtracted for it (once, however often the team asks).
    public var cost: Int
    public var sealed: String

    public init(team: String, message: String, page: Int, hint: Int, cost: Int, sealed: String) {
        self.team = team
        self.message = message
        self.page = page
        self.hint = hint
        self.cost = cost
        self.sealed = sealed
    }

    /// The hint's topic level: `HuntTopic.hintID`.
    public var hintID: String { HuntTopic.hintID(message: message, page: page, hint: hint) }

    /// A sealed box of a 32-byte key: the key, an ephemeral X25519 public key (32) and a tag (16).
    public static let sealedBytes = 80
}
