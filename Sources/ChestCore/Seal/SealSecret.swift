/// The exact strings formats 2 and 3 feed to Argon2id and to the AEAD as associated data (docs/FORMAT.md
/// "Secret strings and associated data"). Pure, so that the engine names what to derive and ChestSeal only computes.
/// Format 3's strings begin `chest-v3`, so nothing moves between the formats.
package enum SealSecret {
    /// "chest-vN|cell=I,J|pin=DIGITS|release=NAME:KEY|answer=TEXT", with only the parts the set holds, in that
    /// order; KEY is the release key in base64, TEXT an answer normalised (`AnswerText.normalised`).
    package static func secret(
        cell: Cell?, pin: String?, release: (name: String, key: String)? = nil, answer: String? = nil,
        version: Int = 2
    ) -> String {
        var parts = [prefix(version)]
        if let cell { parts.append("cell=\(cell)") }
        if let pin { parts.append("pin=\(pin)") }
        if let release { parts.append("release=\(release.name):\(release.key)") }
        if let answer { parts.append("answer=\(answer)") }
        return parts.joined(separator: "|")
    }

    /// The associated data of a page's content: "chest-vN|content|ID|PAGE".
    package static func contentData(_ id: MessageID, page: Int, version: Int = 2) -> String {
        "\(prefix(version))|content|\(id.rawValue)|\(page)"
    }

    /// The associated data of a page's attachments: "chest-vN|attachments|ID|PAGE".
    package static func attachmentsData(_ id: MessageID, page: Int, version: Int = 2) -> String {
        "\(prefix(version))|attachments|\(id.rawValue)|\(page)"
    }

    /// The associated data of a set's wrapped key: "chest-vN|key|ID|PAGE|SET".
    package static func slotData(_ id: MessageID, page: Int, set: LockSetName, version: Int = 2) -> String {
        "\(prefix(version))|key|\(id.rawValue)|\(page)|\(set.rawValue)"
    }

    /// Format 6: what binds a page's key to its inner key and the hunt's start key, "chest-vN|start|ID|PAGE"
    /// (docs/FORMAT.md "Format 6").
    package static func startData(_ id: MessageID, page: Int, version: Int) -> String {
        "\(prefix(version))|start|\(id.rawValue)|\(page)"
    }

    static func prefix(_ version: Int) -> String { "chest-v\(max(2, version))" }
}
