/// What enters and leaves the chest: arrivals taken in or refused, save and delete, and the outcome of each
/// change the daemon carried out on disk.
extension Engine {
    /// Takes in the arrivals that are new messages, refuses the rest with a reason, and asks for the accepted ones
    /// to be stored; they join the engine once `.changed` says they are on disk.
    mutating func admit(_ arrivals: [Arrival], now: Now) -> [Effect] {
        var effects: [Effect] = []
        var admitted: [Admission] = []
        // Identities and chest IDs given in this batch: they join `entries` only once stored.
        var seen: Set<MessageIdentity> = []
        var taken: Set<MessageID> = []
        for arrival in arrivals {
            switch arrival.content {
            case let .refused(reason):
                effects += refuse(arrival, reason: reason)
            case let .message(message, sentByYou):
                let identity = message.identity
                if let reason = huntClaimRefusal(of: message) {
                    effects += refuse(arrival, reason: reason)
                } else if let existing = entries.message(identity), Replacement.replaces(message, existing.message),
                    seen.insert(identity).inserted
                {
                    let state = Replacement.state(from: existing, for: message)
                    let stored = StoredMessage(
                        message: message, state: state, chest: existing.chest, sentByYou: sentByYou,
                        filing: existing.filing)
                    effects.append(
                        .change(
                            .replace(
                                Admission(stored: stored, source: arrival.source),
                                note: Replacement.sentence(old: existing, new: message, state: state))))
                } else if let reason = duplicateReason(of: message) {
                    effects += refuse(arrival, reason: reason)
                } else if !seen.insert(identity).inserted {
                    effects += refuse(
                        arrival, reason: "the same message (\(message.id.short)) arrived twice at once; kept one")
                } else if let filing = entries.filing(for: identity, taken: taken) {
                    let stored = StoredMessage(
                        message: message, state: MessageState(ingestedAt: now.wall),
                        chest: .regular, sentByYou: sentByYou, filing: filing)
                    taken.insert(stored.id)
                    admitted.append(Admission(stored: stored, source: arrival.source))
                } else {
                    effects += refuse(
                        arrival,
                        reason:
                            "\(UInt16.max) other messages in the chest claim the ID \(message.id.short); no room for this one"
                    )
                }
            }
        }
        if !admitted.isEmpty { effects.append(.change(.store(admitted))) }
        return effects
    }

    /// A refused inbox file is set aside and announced; a refused import is answered to its caller.
    private func refuse(_ arrival: Arrival, reason: String) -> [Effect] {
        switch arrival.source {
        case let .staged(path):
            [.reject(path: path, reason: reason), .emit(.rejected(file: arrival.file, reason: reason))]
        case let .copy(_, client): [.reply(client, .failure(reason))]
        }
    }

    /// Why a message cannot join the chest because it is there already: the same message again, or a version of it
    /// from its sender that is not newer. Another sender's message with its ID is no reason: it is filed under a
    /// chest ID of its own (docs/SECURITY.md "Round five (issue 61)").
    func duplicateReason(of message: Message) -> String? {
        guard let existing = entries.message(message.identity) else { return nil }
        let chest = existing.chest == .saved ? "saved" : "regular"
        if existing.message == message {
            return "message \(existing.id.short) \"\(existing.message.title)\" is already in the \(chest) chest"
        }
        return
            "message \(existing.id.short) (\"\(existing.message.title)\") is in the \(chest) chest as composed at \(ISO8601.string(existing.message.created)); "
            + "this version was composed at \(ISO8601.string(message.created)), not later, so it does not replace it"
    }

    /// `chest save`: to the saved chest, which has a limit.
    func save(_ id: MessageID, for client: ClientID) -> [Effect] {
        guard let stored = entries[id] else { return [] }
        guard stored.chest == .regular else {
            return [.reply(client, .failure("\(id.short) is already in the saved chest"))]
        }
        guard savedCount < ChestKind.savedLimit else {
            return [
                .reply(
                    client,
                    .failure(
                        "the saved chest is full (\(ChestKind.savedLimit) messages); delete one first with `chest delete ID`"
                    ))
            ]
        }
        return [.change(.move(id, from: .regular, to: .saved, for: client))]
    }

    /// `chest unsave`: back to the regular chest.
    func unsave(_ id: MessageID, for client: ClientID) -> [Effect] {
        guard let stored = entries[id] else { return [] }
        guard stored.chest == .saved else { return [.reply(client, .failure("\(id.short) is not in the saved chest"))] }
        return [.change(.move(id, from: .saved, to: .regular, for: client))]
    }

    /// `chest undelete [ID]`: the message deleted last, or the one a prefix names, back with its state (PIN
    /// attempts included), as long as it was deleted within `DeletedMessage.keptFor`.
    func undelete(_ text: String?, for client: ClientID, now: Now) -> [Effect] {
        let kept = recentlyDeleted.filter { now.wall.timeIntervalSince($0.at) <= DeletedMessage.keptFor }
        guard !kept.isEmpty else {
            return [
                .reply(
                    client,
                    .failure(
                        "nothing to undelete: no message was deleted in the last \(Wording.duration(DeletedMessage.keptFor))"
                    ))
            ]
        }
        let prefix = text?.lowercased() ?? ""
        let matches = prefix.isEmpty ? [kept[kept.count - 1]] : kept.filter { $0.stored.id.rawValue.hasPrefix(prefix) }
        guard matches.count == 1, var stored = matches.first?.stored else {
            let listed = kept.reversed().map { "\($0.stored.id.short) \"\($0.stored.message.title)\"" }.joined(
                separator: ", ")
            return [
                .reply(
                    client,
                    .failure(
                        "\(matches.isEmpty ? "no" : "more than one") deleted message \(prefix); recently deleted: \(listed)"
                    ))
            ]
        }
        guard entries.message(stored.message.identity) == nil else {
            return [.reply(client, .failure("\(stored.id.short) is in the chest again; nothing to undelete"))]
        }
        if let reason = huntClaimRefusal(of: stored.message) { return [.reply(client, .failure(reason))] }
        if let other = entries[stored.id] {
            return [
                .reply(
                    client,
                    .failure(
                        "another sender's message, \"\(other.message.title)\", has the chest ID \(stored.id.short) now; delete it first to undelete this one"
                    ))
            ]
        }
        stored.chest = .regular
        return [.change(.restore(stored, for: client))]
    }

    /// `chest delete`: out of the chest; kept aside a while for `undelete`.
    func delete(_ id: MessageID, for client: ClientID) -> [Effect] {
        guard let stored = entries[id] else { return [] }
        return [.change(.remove(id, from: stored.chest, for: client))]
    }

    /// How many messages the saved chest holds.
    var savedCount: Int { entries.values.count { $0.chest == .saved } }

    /// Commits a change the daemon carried out, or answers why it could not be.
    mutating func conclude(_ change: ChestChange, _ outcome: WriteOutcome, now: Now) -> [Effect] {
        switch change {
        case let .store(admissions):
            if case let .failed(failure) = outcome {
                return admissions.compactMap { admission in
                    admission.source.client.map { .reply($0, .failure("cannot store the message: \(failure)")) }
                }
            }
            var effects = admissions.flatMap { add($0.stored, announce: true, now: now) }
            effects += rescheduleWake(now)
            effects += planWeather(now)
            let claims = setAsideHuntClaims(of: Set(admissions.map(\.stored.message.id)))
            effects += claims
            for admission in admissions {
                guard let client = admission.source.client else { continue }
                var result = ImportResult(admission.stored)
                result.note =
                    [Self.ownMessageNote(admission.stored), identityNote(admission.stored, settingAside: claims)]
                    .compactMap { $0 }.joined(separator: "; ").nilIfEmpty
                effects.append(.reply(client, .message(result)))
            }
            return effects
        case let .move(id, _, to, client):
            guard var stored = entries[id] else { return [] }
            if case let .failed(failure) = outcome {
                return [.reply(client, .failure("cannot save \(id.short): \(failure)"))]
            }
            stored.chest = to
            entries[id] = stored
            let event =
                to == .saved
                ? ChestEvent.saved(id, title: stored.message.title) : .unsaved(id, title: stored.message.title)
            return [.emit(event), .reply(client, .message(ImportResult(stored)))]
        case let .remove(id, _, client):
            guard let stored = entries[id] else { return [] }
            if case let .failed(failure) = outcome {
                return [.reply(client, .failure("cannot delete \(id.short): \(failure)"))]
            }
            entries.removeValue(forKey: id)
            hinted.remove(id)
            unregisterAll(stored)
            recentlyDeleted.removeAll { $0.stored.id == id }
            recentlyDeleted = Array(
                (recentlyDeleted + [DeletedMessage(stored: stored, at: now.wall)]).suffix(DeletedMessage.limit))
            return [
                .emit(.deleted(id, title: stored.message.title)),
                .reply(client, .message(ImportResult(stored))),
            ]
        case let .setAside(id, _, reason):
            settingAside.remove(id)
            guard case .done = outcome, let stored = entries[id] else { return [] }
            entries.removeValue(forKey: id)
            hinted.remove(id)
            unregisterAll(stored)
            return [.emit(.rejected(file: "\(id.rawValue).\(MessageFile.fileExtension)", reason: reason))]
                + rescheduleWake(now)
        case let .replace(admission, note):
            if case let .failed(failure) = outcome {
                return admission.source.client.map { [.reply($0, .failure("cannot replace the message: \(failure)"))] }
                    ?? []
            }
            var effects = add(admission.stored, announce: true, now: now)
            effects += rescheduleWake(now)
            effects += planWeather(now)
            if let client = admission.source.client {
                var result = ImportResult(admission.stored)
                result.replaced = note
                result.note = Self.ownMessageNote(admission.stored)
                effects.append(.reply(client, .message(result)))
            }
            return effects
        case let .restore(stored, client):
            if case let .failed(failure) = outcome {
                return [.reply(client, .failure("cannot undelete \(stored.id.short): \(failure)"))]
            }
            recentlyDeleted.removeAll { $0.stored.id == stored.id }
            var effects = add(stored, announce: false, now: now)
            effects += rescheduleWake(now)
            effects += planWeather(now)
            effects += setAsideHuntClaims(of: [stored.message.id])
            return effects + [
                .emit(.undeleted(stored.id, title: stored.message.title)),
                .reply(client, .message(ImportResult(stored))),
            ]
        }
    }

    /// The one message an ID or a unique prefix of one names, or the sentence that says why there is none.
    package func resolve(_ text: String?) -> Result<MessageID, ResolveError> {
        let prefix = (text ?? "").lowercased()
        guard !prefix.isEmpty, prefix.utf8.allSatisfy(\.isLowerHex) else { return .failure(.notAnID(text ?? "")) }
        let matches = ids(matching: prefix)
        switch matches.count {
        case 0: return .failure(.none(prefix))
        case 1: return .success(matches[0])
        default: return .failure(.ambiguous(prefix, matches))
        }
    }
}

/// Why an ID given on the command line names no single message.
package enum ResolveError: Error, Hashable, Sendable, CustomStringConvertible {
    case notAnID(String)
    case none(String)
    case ambiguous(String, [MessageID])

    package var description: String {
        switch self {
        case let .notAnID(text): "\"\(text)\" is not a message ID; see `chest list`"
        case let .none(prefix): "no message \(prefix) in the chest; see `chest list` and `chest list --saved`"
        case let .ambiguous(prefix, matches):
            "\(prefix) matches \(matches.count) messages (\(matches.prefix(3).map(\.short).joined(separator: ", "))…); type more of the ID"
        }
    }
}

extension ImportResult {
    init(_ message: Message) { self.init(id: message.id, title: message.title) }

    /// A message in the chest, by its chest ID.
    init(_ stored: StoredMessage) { self.init(id: stored.id, title: stored.message.title) }
}

extension Engine {
    /// What `import` says of a message this machine's own identity sealed (issue 59: it said nothing, and `watch` then
    /// waited for an opening that never comes): a sender cannot open their own messages (docs/DESIGN.md).
    static func ownMessageNote(_ stored: StoredMessage) -> String? {
        guard stored.sentByYou else { return nil }
        return "you sealed this message yourself, and a sender cannot open their own messages: none of its pages "
            + "will open in your chest; give the file to its reader, and use chest preview to see its pages"
    }
}

extension String {
    /// Nil for the empty string.
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
