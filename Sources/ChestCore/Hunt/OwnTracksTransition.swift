import FoundationEssentials

/// OwnTracks' `transition` event for an unlock (docs/HUNTS.md "OwnTracks"), on
/// `owntracks/<team>/<device>/event`, so that OwnTracks' recorder and frontends show unlocks without chest code:
/// `{"_type":"transition","wtst":…,"lat":…,"lon":…,"tst":…,"acc":…,"event":"enter","desc":"<hunt>/<title> p<N>",
/// "t":"c","tid":…}`.
///
/// OwnTracks' format requires `lat` and `lon`; when the hunt does not share positions they are 0 and `acc` is
/// absent, so that a parser that insists on coordinates still reads the event but no position leaves the reader.
package struct OwnTracksTransition: Codable, Hashable, Sendable {
    package var type: String
    /// The region's creation time: here the unlock's, in Unix seconds.
    package var wtst: Int
    package var lat: Double
    package var lon: Double
    /// When it happened, Unix seconds.
    package var tst: Int
    /// Metres; absent when positions are not shared or the fix had no error estimate.
    package var acc: Int?
    /// "enter".
    package var event: String
    package var desc: String
    /// The trigger: "c" (a circular region).
    package var t: String
    /// OwnTracks' two-character tracker ID: the team name's first two characters.
    package var tid: String

    enum CodingKeys: String, CodingKey {
        case type = "_type", wtst, lat, lon, tst, acc, event, desc, t, tid
    }

    /// The event for an unlock; positions from the receipt's last confirming fix, only when shared.
    package init(receipt: UnlockReceipt, huntName: String, team: String, sharePositions: Bool) {
        type = "transition"
        let seconds = Int(receipt.openedAt.timeIntervalSince1970.rounded(.down))
        wtst = seconds
        tst = seconds
        let fix = sharePositions ? receipt.evidence.fixes.last { $0.latitude != nil && $0.longitude != nil } : nil
        lat = fix?.latitude ?? 0
        lon = fix?.longitude ?? 0
        acc = fix?.eph.flatMap { $0.isFinite && $0 >= 0 && $0 < 1e9 ? Int($0.rounded(.up)) : nil }
        event = "enter"
        desc = "\(huntName)/\(receipt.title) p\(receipt.page)"
        t = "c"
        tid = String(team.prefix(2))
    }

    /// The payload: compact JSON, keys sorted.
    package var bytes: Data { try! ChestJSON.encoder().encode(self) }
}
