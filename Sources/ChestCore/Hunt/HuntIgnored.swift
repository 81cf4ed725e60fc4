/// Why the engine did not believe news it heard from the hunt's broker (`Engine.Effect.ignored`); counted either way
/// for `status` (`HuntLinkStatus.ignored`).
package enum HuntIgnored: Hashable, Sendable {
    /// The gate refused the envelope (docs/HUNTS.md "Messages on the broker").
    case refused(HuntGate.Refusal)
    /// A hint key the organiser gave that did not open with this reader's identity: sealed to another reader, or
    /// of the wrong size.
    case hintKeyNotForThisReader
    /// A start key the organiser sealed that did not open with this team's key: another team's, or damaged.
    case startKeyNotForThisTeam
    /// A word the organiser told this team that did not open with the team's key, or opened to no text.
    case wordNotForThisTeam
}
