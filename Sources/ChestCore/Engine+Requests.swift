/// The control socket's requests, answered from the engine's state like ntpd's `build_show_status`.
extension Engine {
    mutating func answer(_ request: ControlRequest, from client: ClientID, now: Now) -> [Effect] {
        switch request.op {
        case .status:
            let notes = [weatherProblem.map { "weather: \($0)" }, weather?.attribution].compactMap { $0 }
            return [.reply(client, .status(status(now: now, notes: notes)))]
        case .list:
            return [.reply(client, .list(list(chest: request.saved == true ? .saved : .regular)))]
        case .undelete:
            return undelete(request.id, for: client, now: now)
        case .read, .pin, .save, .delete, .unsave:
            let id: MessageID
            switch resolve(request.id) {
            case let .success(resolved): id = resolved
            case let .failure(error): return [.reply(client, .failure(error.description))]
            }
            switch request.op {
            case .read: return read(id, now: now).map { [.reply(client, .read($0))] } ?? []
            case .pin: return attemptPIN(id, page: request.page, pin: request.pin ?? "", for: client, now: now)
            case .save: return save(id, for: client)
            case .unsave: return unsave(id, for: client)
            default: return delete(id, for: client)
            }
        case .import:
            // The daemon reads the file and hands it in as an arrival; a bare request has nothing to import.
            return [.reply(client, .failure("import needs an absolute path"))]
        case .reload:
            // chestd answers it itself: the settings are not the engine's.
            return [.reply(client, .failure("reload is answered by chestd"))]
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
