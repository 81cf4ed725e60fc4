import ChestCore
import ChestIO
import ChestMQTT
import Foundation

/// The daemon's part of a hunt: starting the link, and telling it of unlocks and of the team's state.
extension Daemon {
    /// Starts the link of the hunt joined with `chest hunt join`, if any; a broken join file is logged, not fatal.
    func startHunt() {
        do {
            hunt = try HuntLink.joined(settings: settings, chestRoot: store.root, log: log)
        } catch {
            log.error("cannot join the hunt in \(HuntLink.joinedPath(settings)): \(error)")
            hunt = nil
        }
        guard let hunt else {
            feed(.hunt(nil))
            return
        }
        refreshIdentity()
        hunt.identity = identity
        if identity == nil { log.warning("hunt: no identity to sign receipts with; run chest hunt join again") }
        for (name, key) in hunt.releases.sorted(by: { $0.key < $1.key }) { feed(.released(name: name, key: key, now())) }
        let sink = self.sink
        do {
            try hunt.start { sink.yield(.hunt($0)) }
        } catch {
            log.error("hunt: cannot connect to \(hunt.hunt.broker): \(error)")
        }
        feed(.hunt(hunt.report))
    }

    /// SIGHUP or `chest hunt join`: a join file that changed (or went) restarts the link.
    func reloadHunt() {
        let path = HuntLink.joinedPath(settings)
        let joined = FileManager.default.contents(atPath: path).flatMap { try? HuntFile.decode($0) }
        guard joined != hunt?.hunt else { return }
        hunt?.stop()
        hunt = nil
        startHunt()
        announceHunt()
    }

    /// Once the chest is loaded: the receipts owed since joining, and the team's status.
    func announceHunt() {
        guard let hunt else { return }
        refreshIdentity()
        hunt.identity = identity
        hunt.catchUp(engine.entries.values, identity: identity, status: teamStatus())
        hunt.update(teamStatus())
        feed(.hunt(hunt.report))
    }

    func handleHunt(_ event: MQTTEvent) {
        guard let hunt else { return }
        for release in hunt.handle(event) { feed(.released(name: release.name, key: release.key, now())) }
        feed(.hunt(hunt.report))
    }

    /// An event the hunt cares about: an unlock (its receipt), or a change in what the team's status shows. Returns
    /// the link's new state for the engine, when it was told anything.
    func tellHunt(_ event: ChestEvent) -> Engine.Input? {
        guard let hunt else { return nil }
        switch event {
        case let .unlocked(unlock):
            guard let stored = engine.entries[unlock.id],
                  let open = stored.state.openPages.first(where: { $0.page == unlock.page }) else { return nil }
            hunt.unlocked(stored.message, open: open, identity: identity, status: teamStatus())
        case .trust, .gpsd:
            hunt.update(teamStatus())
        case let .fix(fix) where fix.mode.rawValue != hunt.lastFixMode:
            hunt.update(teamStatus())
        default:
            return nil
        }
        return .hunt(hunt.report)
    }

    /// What the organiser's board shows of this team.
    func teamStatus() -> TeamStatus {
        let pages = engine.entries.values.reduce(0) { $0 + $1.state.openPages.count { $0.set != nil } }
        return TeamStatus(online: true, pagesOpen: pages, trust: engine.lastFix == nil ? nil : engine.trust.level,
                          fixMode: engine.lastFix?.mode.rawValue)
    }
}
