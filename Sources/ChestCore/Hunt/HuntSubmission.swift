import FoundationEssentials

/// What a team sends for a mission page (`chest hunt submit`, docs/HUNTS.md "Missions"): the body of a `submit`
/// envelope on `chest/<hunt>/<team>/submit/<id>`, signed by the team's key, sent through its outbox, the photo or text
/// sealed to the organiser's key so that no other team reads it on the broker.
package struct HuntSubmission: Codable, Hashable, Sendable {
    /// What was sent: a photo (known by its bytes, `MissionPhoto`) or a text.
    package enum Kind: String, Codable, Hashable, Sendable, CaseIterable {
        case png, jpeg, webp, text

        /// The content type the board serves a photo with.
        package var contentType: String {
            switch self {
            case .png: "image/png"
            case .jpeg: "image/jpeg"
            case .webp: "image/webp"
            case .text: "text/plain; charset=utf-8"
            }
        }

        package var isPhoto: Bool { self != .text }
    }

    /// The most bytes a photo may have: 8 MiB (docs/HUNTS.md "Missions").
    package static let maximumPhotoBytes = 8 << 20
    /// The most characters a text may have.
    package static let maximumTextLength = 2000
    /// What a sealed box adds to what it seals (libsodium's `crypto_box_SEALBYTES`).
    static let sealOverhead = 48

    package var message: MessageID
    /// 1-based.
    package var page: Int
    package var kind: Kind
    /// Base64 of the sealed box (`crypto_box_seal`) of the photo's bytes or the text's UTF-8 to the X25519 form of the
    /// organiser's key.
    package var sealed: String

    package init(message: MessageID, page: Int, kind: Kind, sealed: String) {
        self.message = message
        self.page = page
        self.kind = kind
        self.sealed = sealed
    }

    /// The page and the size of the sealed box are within bounds. The box's base64 is counted before it is decoded:
    /// a 12 MiB envelope costs its parse and nothing more.
    var isValid: Bool {
        guard (1...Message.maximumPages).contains(page) else { return false }
        let most = Self.sealOverhead + (kind == .text ? Self.maximumTextLength * 4 : Self.maximumPhotoBytes)
        return sealed.utf8.count <= (most + 2) / 3 * 4 && sealed.utf8.count >= 4
    }

    /// Why `text` cannot be sent for a mission, in a sentence; nil when it can: 1 to 2,000 characters, line breaks
    /// and tabs allowed, no other control character.
    package static func problem(text: String) -> String? {
        guard !text.trimmed().isEmpty else { return "the text is empty; write what the mission asks for" }
        guard text.count <= maximumTextLength else {
            return "the text is \(text.count) characters; at most \(maximumTextLength) are sent"
        }
        guard !text.unicodeScalars.contains(where: { $0 != "\n" && $0 != "\t" && TerminalText.isControl($0) }) else {
            return "the text has control characters; write plain text (line breaks are fine)"
        }
        return nil
    }

    /// What the sealed box opened to, checked as `kind` says: the photo's bytes (`MissionPhoto.check`) or the text;
    /// a sentence when it is not what it claims.
    package static func check(opened: [UInt8], kind: Kind) -> Result<String?, HuntError> {
        if kind == .text {
            guard opened.count <= maximumTextLength * 4, let text = String(validating: opened, as: UTF8.self) else {
                return .failure(HuntError("the text is not UTF-8"))
            }
            if let problem = problem(text: text) { return .failure(HuntError(problem)) }
            return .success(text)
        }
        switch MissionPhoto.check(opened) {
        case let .success(photo) where photo.kind == kind: return .success(nil)
        case let .success(photo):
            return .failure(HuntError("the photo is \(photo.kind.rawValue), not \(kind.rawValue) as it claims"))
        case let .failure(error): return .failure(error)
        }
    }
}

/// The organiser's judgement of a team's submission (`chest hunt judge`, docs/HUNTS.md "Missions"): the body of a
/// `verdict` envelope on `chest/<hunt>/organiser/verdict/<team>/<id>`, retained, signed by the organiser. It names
/// the submission it judged (the team's envelope id and the digest of what it held), so every point a mission gives
/// is traceable to the signed verdict and the submission.
package struct HuntVerdict: Codable, Hashable, Sendable {
    package var team: String
    package var message: MessageID
    package var page: Int
    /// The team's id of the submission judged (its outbox sequence number).
    package var submission: UInt64
    /// SHA-256 of what the submission held (the photo's bytes or the text's UTF-8), hex.
    package var digest: String
    package var accepted: Bool
    /// Points given: 0 for a rejection, at most the page's `--points` for an acceptance.
    package var points: Int
    /// Why, in the organiser's words; required for a rejection (0 to 200 characters, no control characters).
    package var reason: String

    package init(
        team: String, message: MessageID, page: Int, submission: UInt64, digest: String, accepted: Bool, points: Int,
        reason: String
    ) {
        self.team = team
        self.message = message
        self.page = page
        self.submission = submission
        self.digest = digest
        self.accepted = accepted
        self.points = points
        self.reason = reason
    }

    var isValid: Bool {
        HuntTeam.isValidName(team) && (1...Message.maximumPages).contains(page)
            && (0...HuntAdjustment.limit).contains(points) && (accepted || points == 0)
            && digest.utf8.count == 64 && digest.utf8.allSatisfy(\.isLowerHex)
            && (reason.isEmpty ? accepted : HuntAdjustment.isValidReason(reason))
    }

    /// What the team is told: the verdict in a sentence.
    package var sentence: String {
        let page = "mission \(message.short) page \(page)"
        guard accepted else {
            return "\(page) rejected: \(reason); you may submit again (chest hunt submit)"
        }
        return "\(page) accepted: \(points) point\(points == 1 ? "" : "s")" + (reason.isEmpty ? "" : ": \(reason)")
    }
}

/// What `chest hunt submit` sends for a mission page: a photo's file, read by chestd, or a text.
package enum MissionContent: Hashable, Sendable {
    /// An absolute path.
    case file(String)
    case text(String)
}
