import ChestCore
import ChestIO
import ChestSeal
import FoundationEssentials

/// The engine's effects, carried out on the loop: each input fed in, its effects performed, their outcomes fed back.
extension Daemon {
    /// Hands one input to the engine and performs its effects; the outcomes they report are fed in turn, after
    /// the effects of the input that caused them.
    func feed(_ input: Engine.Input) {
        // A queue read by index: most inputs (every fix) have no outcome, and need no queue at all.
        var inputs = perform(engine.handle(input))
        var next = 0
        while next < inputs.count {
            next += 1
            inputs += perform(engine.handle(inputs[next - 1]))
        }
    }

    /// Does what the engine asked, in order: state is on disk before anyone hears of it. Returns the outcomes
    /// the engine must hear.
    func perform(_ effects: [Engine.Effect]) -> [Engine.Input] {
        let sink = self.sink
        var outcomes: [Engine.Input] = []
        for effect in effects {
            switch effect {
            case let .persist(id, state, then):
                do {
                    try store.saveState(id, state)
                    CrashPoint.persisted.reached()
                } catch {
                    log.error("cannot save the state of \(id.short): \(error); nothing of it is reported")
                    outcomes.append(.persistFailed(id, onDisk: store.savedState(id), reason: "\(error)", skipped: then))
                    continue
                }
                outcomes += perform(then)
            case let .change(change):
                outcomes.append(.changed(change, carryOut(change), now()))
            case let .reject(path, reason):
                CrashPoint.rejecting.reached()
                setAside(path, reason: reason)
            case let .emit(event):
                emit(event)
            case let .send(client, event):
                clients[client]?.send(event.line(emittedAt: now().wall))
            case let .notify(unlock):
                notifications.deliver(unlock, picture: picture(for: unlock), log: log) {
                    sink.yield(.notified(unlock.id, page: unlock.page, delivered: $0))
                }
            case let .openHint(opening):
                let text = HintSealer.open(
                    opening.ciphertext, key: opening.key, id: opening.sealedID, page: opening.page,
                    hint: opening.hint, version: opening.version)
                outcomes.append(.hintOpened(opening, text: text, now()))
            case let .notifyHint(note):
                notifications.deliverHint(note, log: log)
            case let .reply(client, reply):
                if reply == .subscribed {
                    clients[client]?.send(reply.line(timeZone: .current))
                } else {
                    clients.removeValue(forKey: client)?.send(reply.line(timeZone: .current), thenClose: true)
                }
            case let .readForImport(path, client):
                outcomes.append(importArrival(path, for: client))
            case let .readSettings(client):
                outcomes.append(.settingsRead(client, readSettings()))
            case let .describeSettings(client): outcomes.append(.settingsDescribed(client, settings.effective))
            case let .wake(at):
                wakeTimer?.aim(at: at?.timeIntervalSince1970)
            case let .fetchWeather(coordinate):
                weather.fetch(at: coordinate) { sink.yield(.weatherFetched($0)) }
            case let .weatherCheck(at):
                weatherTimer?.aim(at: at?.timeIntervalSince1970)
            case let .fixCheck(at): aimFixCheck(at)
            case let .checkPIN(id, pin, hashes):
                sealWorker?.check(id, pin: pin, hashes: hashes)
            case let .deriveKey(request):
                sealWorker?.submit(request)
            case let .hunt(action):
                outcomes += performHunt(action)
            case let .announce(said, huntName):
                notifications.announce(said, huntName: huntName, log: log)
            case let .ignored(why, topic):
                logIgnored(why, topic: topic)
            case let .recordAttempts(id, attempts):
                outcomes.append(.attemptsRecorded(id, recordAttempts(id, attempts), now()))
            }
        }
        return outcomes
    }

    /// Logs an event and sends it to every watcher.
    func emit(_ event: ChestEvent) {
        if case .fix = event {
            log.debug(event.logLine)
        } else {
            log.info(event.logLine)
            releaseCodeSoon()
        }
        // STATUS= changes with the fix's mode and the counts: not worth a count of every message on each fix.
        switch event {
        case let .fix(fix) where fix.mode != systemdMode:
            systemdMode = fix.mode
            updateSystemdStatus()
        case .gpsd, .fixLost, .fixFound, .ingested, .unlocked, .deleted, .saved:
            updateSystemdStatus()
        default: break
        }
        guard !engine.subscribers.isEmpty else { return }
        let line = event.line(emittedAt: now().wall)
        for client in engine.subscribers { clients[client]?.send(line) }
    }
}
