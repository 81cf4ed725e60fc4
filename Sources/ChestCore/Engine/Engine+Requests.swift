/// The control socket's requests, answered from the engine's state like ntpd's `build_show_status`.
extension Engine {
    mutating func answer(_ request: ControlRequest, from client: ClientID, now: Now) -> [Effect] {
        do {
            return try answering(request, from: client, now: now)
        } catch {
            return [.reply(client, .failure(error.description))]
        }
    }

    /// One case per request, so a new request must say what it does; those that name a message by an ID prefix
    /// throw when the prefix names none or several.
    private mutating func answering(_ request: ControlRequest, from client: ClientID, now: Now) throws(ResolveError)
        -> [Effect]
    {
        switch request {
        case .status:
            let notes = [weatherProblem.map { "weather: \($0)" }, weather?.attribution].compactMap { $0 }
            return [.reply(client, .status(status(now: now, notes: notes)))]
        case let .list(saved):
            return [.reply(client, .list(list(chest: saved ? .saved : .regular)))]
        case let .undelete(id):
            return undelete(id, for: client, now: now)
        case let .read(prefix):
            return read(try resolve(prefix).get(), now: now).map { [.reply(client, .read($0))] } ?? []
        case let .pin(prefix, pin, page):
            return attemptPIN(try resolve(prefix).get(), page: page, pin: pin, for: client, now: now)
        case let .answer(prefix, text, page):
            return attemptAnswer(try resolve(prefix).get(), page: page, text: text, for: client, now: now)
        case let .save(prefix):
            return save(try resolve(prefix).get(), for: client)
        case let .unsave(prefix):
            return unsave(try resolve(prefix).get(), for: client)
        case let .delete(prefix):
            return delete(try resolve(prefix).get(), for: client)
        case let .hint(prefix, page):
            return askHint(try resolve(prefix).get(), page: page, for: client, now: now)
        case let .ask(text):
            return ask(text, for: client)
        case let .submit(prefix, page, text, path):
            return submit(try resolve(prefix).get(), page: page, text: text, path: path, for: client)
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
            guard let fix = lastFix, fix.position != nil, fix.isFresh(at: now.monotonic, life: cadence.maximumGap)
            else {
                return [
                    .reply(
                        client,
                        .failure(
                            "\(LockReason.noFix(gpsConnected: gps.connected)); wait for a fix (chest status) or type the position"
                        ))
                ]
            }
            return [.reply(client, .fix(fix))]
        case .watch:
            guard subscribers.count < Engine.maximumWatchers else {
                return [
                    .reply(client, .failure("chestd already has \(Engine.maximumWatchers) watchers; stop one first"))
                ]
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
