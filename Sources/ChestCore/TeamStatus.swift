/// A team's retained status (docs/HUNTS.md "Messages on the broker"); its last will says `online: false`.
public struct TeamStatus: Codable, Hashable, Sendable {
    public var online: Bool
    public var pagesOpen: Int
    public var trust: FixTrust.Level?
    /// gpsd's fix mode (0–3) when known.
    public var fixMode: Int?
    /// In an online status: the id of the last will registered for this connection (`HuntOutbox.reserveID`).
    /// The will is signed when the connection is made, so its id is below every status sent after; naming it
    /// here lets the gate accept that one will later (`HuntGate`) and no older one.
    public var will: UInt64?

    public init(online: Bool, pagesOpen: Int, trust: FixTrust.Level? = nil, fixMode: Int? = nil, will: UInt64? = nil) {
        self.online = online
        self.pagesOpen = pagesOpen
        self.trust = trust
        self.fixMode = fixMode
        self.will = will
    }
}
