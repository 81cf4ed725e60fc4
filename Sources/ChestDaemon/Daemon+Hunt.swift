import ChestCore
import ChestIO
import ChestMQTT
import Foundation

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
        let ignored = engine.hunt?.ignored.values.reduce(0, +) ?? 0
        feed(.hunt(news, now()))
        if case let .hintKey(_, topic, _, _) = news, engine.hunt?.ignored.values.reduce(0, +) ?? 0 > ignored {
            log.warning("hunt: ignored a hint on \(TerminalText.escaped(topic)) that is not the organiser's or not for this reader")
        }
        if case let .heard(_, topic, _) = news, engine.hunt?.ignored.values.reduce(0, +) ?? 0 > ignored {
            log.warning("hunt: ignored a message on \(TerminalText.escaped(topic)) that is not the organiser's")
        }
    }

    /// Carries out what the engine asked of the hunt's link.
    func performHunt(_ action: HuntAction) -> [Engine.Input] {
        if case let .announce(said, huntName) = action {
            notifications.announce(said, huntName: huntName, log: log)
            return []
        }
        let sink = self.sink
        return huntLink.perform(action) { sink.yield(.hunt($0)) }.map { .hunt($0, now()) }
    }
}
