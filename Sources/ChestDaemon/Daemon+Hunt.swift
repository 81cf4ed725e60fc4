import ChestCore
import ChestIO
import ChestMQTT
import FoundationEssentials
import Glibc

/// The daemon's part of a hunt: reading the join file for the engine, carrying out its `HuntAction`s through the
/// link, and handing it the broker's news (Engine+Hunt.swift decides).
extension Daemon {
    /// At start, and on SIGHUP or `chest hunt join`: the join file as it is now (the engine ignores an unchanged one).
    func readHunt() {
        refreshIdentity()
        huntLink.identity = identity
        let news = huntLink.read(settings: settings)
        feed(.hunt(news, now()))
        if case .joined(_?, _, _, _, _) = news { feed(.hunt(huntLink.keptHintKeys(), now())) }
    }

    func handleHunt(_ event: MQTTEvent) {
        guard let news = huntLink.news(event) else { return }
        feed(.hunt(news, now()))
    }

    /// Carries out what the engine asked of the hunt's link.
    func performHunt(_ action: HuntAction) -> [Engine.Input] {
        let sink = self.sink
        return huntLink.perform(action) { sink.yield(.hunt($0)) }.map { .hunt($0, now()) }
    }

    /// Logs news from the broker the engine did not believe (`Engine.Effect.ignored`).
    func logIgnored(_ why: HuntIgnored, topic: String) {
        let reason =
            switch why {
            case .refused(.malformed): "it is not a chest hunt message"
            case .refused(.otherHunt): "it is for another hunt"
            case .refused(.unknownKey): "its sender's key is not the one the hunt file knows"
            case .refused(.badSignature): "its signature does not hold"
            case .refused(.wrongTopic): "its sender or kind does not belong on that topic"
            case .refused(.replayed): "it was heard before, or is older than what was"
            case .refused(.afterEnd), .refused(.beforeStart), .refused(.afterLimit):
                "it came outside the hunt's time"
            case .refused(.tooFast): "it came faster than a team's rate"
            case .refused(.queueFull): "it came while the queue was full"
            case .hintKeyNotForThisReader: "the hint key is not sealed to this reader"
            case .startKeyNotForThisTeam: "the start key is not sealed to this team"
            case .wordNotForThisTeam: "the word is not sealed to this team, or is no text"
            }
        log.warning("hunt: ignored a message on \(TerminalText.escaped(topic)): \(reason)")
    }
}
