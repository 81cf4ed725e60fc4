import struct FoundationEssentials.Date

extension Engine {
    /// What the caller must do, in order. None of them calls back into the engine while it runs: an outcome
    /// the engine needs comes back as a later input.
    package enum Effect: Hashable, Sendable {
        /// Write the message's state durably; only once it is on disk carry out `then`, what announces the change
        /// (an unlock's event and notification, a PIN's acceptance). When the write fails, answer with
        /// `.persistFailed`, handing back `then` undone.
        case persist(MessageID, MessageState, then: [Effect] = [])
        /// Change the chest on disk and answer with `.changed`.
        case change(ChestChange)
        /// Set a refused file aside with its reason (never delete it).
        case reject(path: String, reason: String)
        /// Tell every watcher and the log.
        case emit(ChestEvent)
        /// Tell one watcher only.
        case send(ClientID, ChestEvent)
        /// Hand an unlock to the desktop and the hook; answer with `.delivered` once one of them took it.
        case notify(Unlock)
        /// Try a hint's key on its ciphertext (cheap: one XChaCha20-Poly1305) and answer with `.hintOpened`.
        case openHint(HintOpening)
        /// Show a hint that opened on the desktop.
        case notifyHint(HintNote)
        /// Answer a request. Every reply but `.subscribed` ends the connection.
        case reply(ClientID, Reply)
        /// Call back with `.tick` at this system-clock instant (the next time lock due); replaces earlier wakes.
        case wake(at: Date?)
        /// Ask the weather provider about this (rounded) position; answer with `.weatherFetched` or `.weatherFailed`.
        case fetchWeather(Coordinate)
        /// Call back with `.tick` at this instant to see whether the weather needs asking again.
        case weatherCheck(at: Date?)
        /// Call back with `.tick` once the monotonic clock reaches these seconds: the fix in hand ages out then,
        /// and a feed gone silent is told as `fixLost` (Engine+FixState.swift).
        case fixCheck(at: Double)
        /// Compare `pin` with these Argon2id hashes, off the loop, and answer with `.pinChecked`.
        case checkPIN(MessageID, pin: String, hashes: [LockKey: String])
        /// Recover a format 2 page key, off the loop (the seal worker), and answer with `.keyDerived`.
        case deriveKey(KeyRequest)
        /// Write a message's PIN attempts to the chest's ledger, which outlives the message, and answer with
        /// `.attemptsRecorded`.
        case recordAttempts(MessageID, PINAttempts)
        /// Read the message file at this absolute path for the client's `import` and hand it in as an arrival.
        case readForImport(String, ClientID)
        /// Read the settings file again, swap what the adapters take from it, rescan the chest, and answer with
        /// `.settingsRead` (for a client's `reload`, or SIGHUP's with none).
        case readSettings(ClientID?)
        /// Tell which settings the daemon runs with, for the client's `config`, and answer with `.settingsDescribed`.
        case describeSettings(ClientID)
        /// Ask the hunt's link (Engine+Hunt.swift); outcomes come back as `.hunt` inputs.
        case hunt(HuntAction)
        /// Show the organiser's word on the desktop, as unlocks are; nothing comes back.
        case announce(HuntWord.Said, huntName: String)
        /// Log that news heard on `topic` from the hunt's broker was not believed, and why; nothing comes back (the
        /// engine counted it already, for `status`).
        case ignored(HuntIgnored, topic: String)
    }
}
