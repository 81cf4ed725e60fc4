/// A team's retained status (docs/HUNTS.md "Messages on the broker"); its last will says `online: false`.
public struct TeamStatus: Codable, Hashable, Sendable {
    public var online: Bool
    public var pagesOpen: Int
    public var trust: FixTrust.Level?
    /// gpsd's fix mode (0–3) when known.
    public var fixMode: Int?

    public init(online: Bool, pagesOpen: Int, trust: FixTrust.Level? = nil, fixMode: Int? = nil) {
        self.online = online
        self.pagesOpen = pagesOpen
        self.trust = trust
        self.fixMode = fixMode
    }
}
