/// The exact strings format 2 feeds to Argon2id and to the AEAD as associated data (docs/FORMAT.md
/// "Secret strings and associated data"). Pure, so that the engine names what to derive and ChestSeal only computes.
public enum SealSecret {
    /// "chest-v2|cell=I,J|pin=DIGITS|release=NAME:KEY", with only the parts the set holds, in that order; KEY is
    /// the release key in base64.
    public static func secret(cell: Cell?, pin: String?, release: (name: String, key: String)? = nil) -> String {
        var parts = ["chest-v2"]
        if let cell { parts.append("cell=\(cell)") }
        if let pin { parts.append("pin=\(pin)") }
        if let release { parts.append("release=\(release.name):\(release.key)") }
        return parts.joined(separator: "|")
    }

    /// The associated data of a page's content: "chest-v2|content|ID|PAGE".
    public static func contentData(_ id: MessageID, page: Int) -> String { "chest-v2|content|\(id.rawValue)|\(page)" }

    /// The associated data of a set's wrapped key: "chest-v2|key|ID|PAGE|SET".
    public static func slotData(_ id: MessageID, page: Int, set: LockSetName) -> String {
        "chest-v2|key|\(id.rawValue)|\(page)|\(set.rawValue)"
    }
}
