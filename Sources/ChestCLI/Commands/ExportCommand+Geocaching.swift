import ChestCore
import ChestGPX
import ChestSimulator
import FoundationEssentials

/// `export --gpx --sealed --geocaching QUEST`: the quest as a GPX a geocaching tool imports as caches (docs/QUEST.md
/// "Names on the way back"): GPX 1.0 with `groundspeak:cache` 1.0.1 in each cache's `<wpt>`, as a Pocket Query has
/// it (gpsbabel reads the cache extension there, not in GPX 1.1's `<extensions>`).
extension ExportCommand {
    static let groundspeak = "http://www.groundspeak.com/cache/1/0/1"

    /// The places, each a cache of its waypoint's type (`Geocache|Multi-cache`, another site's `TerraCache|Virtual` as
    /// `Geocache|Virtual`; an unknown cache without one) or an additional waypoint (`Waypoint|Final Location`): its
    /// name the code, its text the page's, its hint the first.
    static func geocachingGPX(_ places: [Place]) -> String {
        let escape = GPX.escape
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<gpx version="1.0" creator="chest \#(escape(ChestVersion.string))" xmlns="http://www.topografix.com/GPX/1/0" xmlns:groundspeak="\#(groundspeak)">"#,
        ]
        for (index, place) in places.enumerated() {
            let type = place.type ?? "Geocache|Unknown Cache"
            let kind = String(type.split(separator: "|", maxSplits: 1).last ?? "Unknown Cache")
            // The page's first line is its title, the rest its listing: read back, the page is the same.
            let parts = (place.page?.text ?? "").split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            let title = parts.first.map(String.init).flatMap { $0.isEmpty ? nil : $0 } ?? place.name
            let text = parts.count > 1 ? String(parts[1].drop { $0 == "\n" }) : ""
            lines.append(
                "  <wpt " + String(printf: #"lat="%.7f" lon="%.7f""#, place.center.latitude, place.center.longitude)
                    + ">")
            lines.append("    <name>\(escape(place.name))</name>")
            guard !type.lowercased().hasPrefix("waypoint|") else {
                lines.append("    <cmt>\(escape(text))</cmt>")
                lines.append("    <desc>\(escape(title))</desc>")
                lines.append("    <sym>\(escape(kind))</sym>")
                lines.append("    <type>\(escape(type))</type>")
                lines.append("  </wpt>")
                continue
            }
            let owner = escape(place.from ?? "chest")
            lines += [
                "    <desc>\(escape(title)) by \(owner), \(escape(kind))</desc>",
                "    <urlname>\(escape(title))</urlname>",
                "    <sym>Geocache</sym>",
                "    <type>Geocache|\(escape(kind))</type>",
                #"    <groundspeak:cache id="\#(index + 1)" available="True" archived="False">"#,
                "      <groundspeak:name>\(escape(title))</groundspeak:name>",
                "      <groundspeak:placed_by>\(owner)</groundspeak:placed_by>",
                "      <groundspeak:owner>\(owner)</groundspeak:owner>",
                "      <groundspeak:type>\(escape(kind))</groundspeak:type>",
                "      <groundspeak:container>Other</groundspeak:container>",
                #"      <groundspeak:long_description html="False">\#(escape(text))</groundspeak:long_description>"#,
            ]
            if let hint = place.page?.hints.first?.text {
                lines.append("      <groundspeak:encoded_hints>\(escape(hint))</groundspeak:encoded_hints>")
            }
            lines += ["    </groundspeak:cache>", "  </wpt>"]
        }
        lines.append("</gpx>")
        return lines.joined(separator: "\n") + "\n"
    }
}
