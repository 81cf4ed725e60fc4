import struct FoundationEssentials.Date

extension Engine {
    /// Something that happened, with the clocks sampled by the caller.
    package enum Input: Sendable {
        /// The chest as it was found at start; `refused` are stored files to set aside (path, reason).
        case loaded([StoredMessage], refused: [(path: String, reason: String)], Now)
        /// Message files read and checked by the daemon (from the inbox, or `chest import`), to take in or refuse.
        case arrived([Arrival], Now)
        /// The daemon carried out a `.change`, or says why it could not.
        case changed(ChestChange, WriteOutcome, Now)
        /// A request on the control socket; what it needs of the daemon (an imported file read, the settings read
        /// again) the engine asks for with an effect, and it comes back as another input (`.arrived`, `.settingsRead`).
        case request(ClientID, ControlRequest, Now)
        /// The settings file read again: what a reload tells its client, and the settings the engine applies.
        case settingsRead(ClientID?, SettingsReading)
        /// The daemon's answer to `.describeSettings`.
        case settingsDescribed(ClientID, EffectiveSettings)
        /// A control connection closed.
        case clientGone(ClientID)
        case fix(Fix, Now)
        case gpsLink(connected: Bool, server: String, reason: String?)
        /// gpsd named the device feeding it, identified by the daemon; `nil` when it went away.
        case receiver(FixSource?, Now)
        /// The wake-up the engine asked for with `.wake`, or any other moment worth re-checking time locks.
        case tick(Now)
        /// The last reading kept from an earlier run, served (with its age) until a new one arrives.
        case weatherRestored(WeatherObservation)
        /// A weather reading arrived from the provider.
        case weatherFetched(WeatherObservation, Now)
        /// A weather request failed; `offline` when the provider could not be reached at all.
        case weatherFailed(reason: String, retryAfter: Double?, offline: Bool, Now)
        /// The caller's answer to `.checkPIN`: which of the offered PIN locks the PIN opens.
        case pinChecked(MessageID, pin: String, matching: [LockKey], Now)
        /// A `.persist` could not be written (a full disk, `reason`): the message goes back to the state on disk
        /// (`onDisk`, or none), so nothing stays open or latched that a restart would not find. `skipped` is the
        /// persist's `then`, not carried out: nothing of it is announced, and every client waiting in it is told.
        case persistFailed(MessageID, onDisk: MessageState?, reason: String, skipped: [Effect])
        /// An unlock reached a notifier (the desktop or the hook).
        case delivered(MessageID, page: Int)
        /// The seal worker's answer to `.deriveKey`, with the proof key (base64) it made from a page key it
        /// recovered: kept with the page when it opens, for its receipt's proof (Engine+Proof.swift).
        case keyDerived(KeyRequest, KeyResult, Now, proofKey: String? = nil)
        /// The chest's ledger of PIN attempts by message ID, read at start before `.loaded`.
        case attemptsRestored([MessageID: PINAttempts])
        /// The messages deleted before a restart, still kept for `chest undelete`, oldest first.
        case deletedRestored([DeletedMessage])
        /// The daemon wrote `.recordAttempts` durably, or says why it could not.
        case attemptsRecorded(MessageID, WriteOutcome, Now)
        /// What the hunt's link read or heard (Engine+Hunt.swift).
        case hunt(HuntNews, Now)
        /// The daemon's answer to `.openHint`: the hint's text, or nil when the key did not open it (Engine+Hints.swift).
        case hintOpened(HintOpening, text: String?, Now)
    }
}
