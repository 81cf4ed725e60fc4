/// A team's question to the organiser and the organiser's word to this team alone (docs/HUNTS.md "A team's question,
/// a word to one team").
extension Engine {
    /// `chest hunt ask TEXT`: the question put in the outbox, signed with the team's key by the hunt's adapter, and
    /// sent when the broker is there.
    mutating func ask(_ text: String, for client: ClientID) -> [Effect] {
        guard huntBook.isJoined else {
            return [.reply(client, .failure("no hunt is joined; join one first (chest hunt join FILE)"))]
        }
        if let problem = HuntQuestion.problem(text) { return [.reply(client, .failure(problem))] }
        let sent =
            huntBook.connected
            ? "the question is sent to the organiser's board"
            : "the broker is away: the question waits in the outbox; it is sent when the broker is back"
        return [.hunt(.ask(HuntQuestion(text: text))), .reply(client, .notes([sent]))]
    }

    /// A word the organiser sealed to one team, opened by the hunt's adapter with the team's key (`opened`, nil when
    /// it did not open): told once, ever, when the gate believes the envelope and it is this team's.
    mutating func toldHeard(_ envelope: HuntEnvelope, topic: String, signatureValid: Bool, opened: [UInt8]?)
        -> [Effect]
    {
        guard var gate = huntBook.gate else { return [] }
        let verdict = gate.admit(envelope, topic: topic, signatureValid: signatureValid)
        huntBook.gate = gate
        if case let .refused(refusal) = verdict { return [.ignored(.refused(refusal), topic: topic)] }
        guard case let .told(word) = envelope.body, let team = huntBook.file?.team?.rawValue, word.team == team
        else { return [] }
        guard let opened, let text = HuntTeamWord.text(opened: opened) else {
            return [.ignored(.wordNotForThisTeam, topic: topic)]
        }
        return saidHeard(HuntSaid(text: text), id: envelope.id, sent: envelope.sent, team: team)
    }
}
