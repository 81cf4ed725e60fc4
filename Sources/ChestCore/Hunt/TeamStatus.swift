/// A team's retained status (docs/HUNTS.md "Messages on the broker"); its last will says `online: false`.
///
/// Its envelope's id orders it: a connection's session number in the high 32 bits and a count in the low ones,
/// the will taking the highest count. So the will, signed when the connection is made, still comes after every
/// status of its connection and before those of the next, and the gate needs only "higher id wins".
package struct TeamStatus: Codable, Hashable, Sendable {
    package var online: Bool
    package var pagesOpen: Int
    package var trust: FixTrust.Level?
    /// gpsd's fix mode (0–3) when known.
    package var fixMode: Int?
    /// The reader key (Ed25519, base64) of the chestd that sent this status, and its signature claiming to play
    /// for the team (`ReaderClaim`, docs/HUNTS.md "Reader keys"): the board credits receipts of claimed readers only.
    package var reader: String?
    package var readerClaim: String?
    /// The device of the team that sent it (`chest hunt join --device`, docs/HUNTS.md "Several devices in one
    /// team"), a topic level; its topic is `chest/<hunt>/<team>/status/<device>`. Absent from an older chestd.
    package var device: String?
    /// Metres the team's receiver was carried while the hunt was on for it (`WalkedDistance`, docs/HUNTS.md
    /// "Distance walked"), counted since its chestd started; only when the hunt shares positions. Absent from an older
    /// chestd.
    package var walked: Int?

    package init(
        online: Bool, pagesOpen: Int, trust: FixTrust.Level? = nil, fixMode: Int? = nil, walked: Int? = nil
    ) {
        self.online = online
        self.walked = walked
        self.pagesOpen = pagesOpen
        self.trust = trust
        self.fixMode = fixMode
    }

    /// The id of a status of `session`: the `count`th, or the session's last will.
    package static func id(session: UInt64, count: UInt64?) -> UInt64 {
        session << 32 | (count.map { min($0, UInt64(UInt32.max) - 1) } ?? UInt64(UInt32.max))
    }
}
