import struct FoundationEssentials.Date

/// What comes out of the board's core, for its adapter to carry out, and what it lists for the screens.
extension BoardCore {
    /// A hint's key to seal to a team's reader and publish, signed by the organiser (docs/HUNTS.md "Hints").
    package struct HintAnswer: Hashable, Sendable {
        package var team: String
        package var message: MessageID
        package var page: Int
        package var hint: Int
        package var cost: Int
        /// The team's reader key (base64 Ed25519) the key is sealed to.
        package var reader: String
        /// The hint's key (32 bytes, base64) from the organiser's file.
        package var key: String
    }

    package enum Effect: Sendable {
        /// Append this line to the journal.
        case journal(BoardJournal.Line)
        /// Read the hunt file again (when it changed), answer `.huntRead`, then feed the message back as `.rechecked`.
        case rereadHunt(Heard, replay: Bool)
        /// Seal, sign and publish a hint's key, retained.
        case answerHint(HintAnswer)
        /// Something to show: a line of `chest board --json`, and the screens.
        case event(BoardEvent)
        /// Write a submission's photo to the folder beside the journal under `name` (docs/HUNTS.md "Missions").
        case keepPhoto(name: String, bytes: [UInt8])
        /// Remove a photo a later submission replaced before it was judged.
        case dropPhoto(name: String)
    }

    /// An event the board heard, with when it heard it.
    package struct Logged: Sendable {
        package var at: Date
        package var event: BoardEvent
    }

    /// An organiser's word to the teams, with when the board heard it (docs/HUNTS.md "Word to all teams").
    package struct HeardWord: Hashable, Sendable {
        package var at: Date
        package var said: HuntWord.Said
    }

    /// A team's question (`chest hunt ask`, docs/HUNTS.md "A team's question, a word to one team"): the team, its
    /// text, when the board heard it, and the team's id for it (its outbox sequence number).
    package struct HeardQuestion: Hashable, Sendable, Codable {
        package var team: String
        package var text: String
        package var at: Date
        package var id: UInt64
    }
}
