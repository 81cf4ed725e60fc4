import FoundationEssentials

/// The lines of the board's journal (docs/HUNTS.md "The board's journal"), `HUNT.board` beside the hunt file: one
/// JSON object a line. The board's core decides what is written (`BoardCore.Effect.journal`) and reads it back at
/// start; an adapter owns the file.
package enum BoardJournal {
    /// One line: a message that passed the gate, in full (`payload`, base64); or a refusal by the gate (`refused`, its
    /// reason) with the topic it came on; or refusals kept only as counts since the previous such line (`counts`:
    /// reason → team, or "" for none, → how many); or a delayed hint the board gave a team free (`given`, with an
    /// empty topic); or messages the board first had when it read the hunt file again (`had`, with an empty topic).
    package struct Line: Codable, Hashable, Sendable {
        package var at: Date
        package var topic: String
        package var payload: String?
        package var refused: String?
        package var counts: [String: [String: Int]]?
        package var given: Given?
        package var had: [MessageID]?
        /// A team's submission for a mission page, as the board took it in (docs/HUNTS.md "Missions"): its photo
        /// is in the folder beside the journal (`HUNT.board.photos/<digest>.<kind>`), not in the line.
        package var submitted: BoardCore.HeardSubmission?

        package init(
            at: Date, topic: String, payload: String? = nil, refused: String? = nil,
            counts: [String: [String: Int]]? = nil, given: Given? = nil, had: [MessageID]? = nil,
            submitted: BoardCore.HeardSubmission? = nil
        ) {
            self.submitted = submitted
            self.at = at
            self.topic = topic
            self.payload = payload
            self.refused = refused
            self.counts = counts
            self.given = given
            self.had = had
        }

        /// The line as written: JSON and a newline.
        package var bytes: Data {
            var line = (try? JSONEncoder().encode(self)) ?? Data()
            line.append(0x0a)
            return line
        }

        /// A line as read back; nil for one that is not a journal line (a torn last line after a crash).
        package static func decode(_ line: Data) -> Line? { try? JSONDecoder().decode(Line.self, from: line) }
    }

    /// A delayed hint the board gave a team free once its delay had run (docs/HUNTS.md "Hints: the board's side"):
    /// journalled, so a restarted board has given it and does not give it again.
    package struct Given: Codable, Hashable, Sendable {
        package var team: String
        package var message: MessageID
        package var page: Int
        package var hint: Int

        package init(team: String, message: MessageID, page: Int, hint: Int) {
            self.team = team
            self.message = message
            self.page = page
            self.hint = hint
        }
    }

    /// The refusals written one a line over the journal's life; beyond them, refusals are kept as counts (issue 33:
    /// junk must not grow the journal by a line each).
    package static let refusalLines = 100
    /// The least time between two count lines, by the board's clock: the journal grows by at most one a minute
    /// however much junk arrives.
    package static let countInterval: TimeInterval = 60

    /// A topic as the journal and the refusals show it: at most 256 bytes (a hunt's own topics are far shorter).
    package static func shortened(_ topic: String) -> String {
        topic.utf8.count <= 256 ? topic : String(decoding: topic.utf8.prefix(256), as: UTF8.self) + "…"
    }
}
