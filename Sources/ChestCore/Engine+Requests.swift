/// The control socket's requests, answered from the engine's state like ntpd's `build_show_status`.
extension Engine {
    mutating func answer(_ request: ControlRequest, from client: ClientID, now: Now) -> [Effect] {
        switch request {
        case .status:
            let notes = [weatherProblem.map { "weather: \($0)" }, weather?.attribution].compactMap { $0 }
            return [.reply(client, .status(status(now: now, notes: notes)))]
        case let .list(saved):
            return [.reply(client, .list(list(chest: saved ? .saved : .regular)))]
        case let .undelete(id):
            return undelete(id, for: client, now: now)
        case let .read(prefix), let .pin(prefix, _, _), let .answer(prefix, _, _), let .save(prefix), let .unsave(prefix), let .delete(prefix):
            let id: MessageID
            switch resolve(prefix) {
            case let .success(resolved): id = resolved
            case let .failure(error): return [.reply(client, .failure(error.description))]
            }
            switch request {
            case .read: return read(id, now: now).map { [.reply(client, .read($0))] } ?? []
            case let .pin(_, pin, page): return attemptPIN(id, page: page, pin: pin, for: client, now: now)
            case let .answer(_, text, page): return attemptAnswer(id, page: page, text: text, for: client, now: now)
            case .save: return save(id, for: client)
            case .unsave: return unsave(id, for: client)
            default: return delete(id, for: client)
            }
        case let .import(path):
            // The file is read where it is, by the daemon, and comes back as an arrival for this client.
            guard path.hasPrefix("/") else { return [.reply(client, .failure("import needs an absolute path"))] }
            return [.readForImport(path, client)]
        case .reload:
            // The settings are read by the daemon; what they change in the engine comes back as `.settingsRead`.
            return [.readSettings(client)]
        case .config:
            return [.describeSettings(client)]
        case .fix:
            guard let fix = lastFix, fix.position != nil, fix.isFresh(at: now.monotonic) else {
                return [.reply(client, .failure("\(LockReason.noFix(gpsConnected: gps.connected)); wait for a fix (chest status) or type the position"))]
            }
            return [.reply(client, .fix(fix))]
        case .watch:
            guard subscribers.count < Engine.maximumWatchers else {
                return [.reply(client, .failure("chestd already has \(Engine.maximumWatchers) watchers; stop one first"))]
            }
            subscribers.insert(client)
            let pending = undelivered
            var effects: [Effect] = [.reply(client, .subscribed)]
            effects += pending.map { .send(client, .unlocked($0)) }
            for id in Set(pending.map(\.id)).sorted() {
                effects += markDelivered(id, pages: pending.filter { $0.id == id }.map(\.page))
            }
            return effects
        }
    }
}
