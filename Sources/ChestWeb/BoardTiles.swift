import ChestCore
import FoundationEssentials

/// A map drawn beneath the board's own (`chest board --tiles URL --tiles-attribution TEXT`, docs/HUNTS.md "A map
/// beneath"): a slippy-map tile source the organiser names, drawn by Leaflet from Debian's libjs-leaflet, which the
/// board serves itself; the page's Content-Security-Policy lets images come from that source and nowhere else.
package struct BoardTiles: Sendable, Hashable {
    /// Where Leaflet is installed (Debian's libjs-leaflet); the board serves its files under `/leaflet/`.
    package static let leafletDirectory = "/usr/share/javascript/leaflet"

    /// The tile URL template, `{z}`, `{x}` and `{y}` in it, and `{s}` for a subdomain.
    package let url: String
    /// What the tile source requires to be shown with its tiles (its licence, its makers).
    package let attribution: String
    /// The origin images may come from, for the Content-Security-Policy: `https://*.tile.example.org` for `{s}`.
    package let origin: String

    /// Throws a sentence for a URL that is not http(s) or lacks `{z}`, `{x}` or `{y}`, or for an empty attribution.
    package init(url: String, attribution: String) throws(TilesError) {
        guard ["{z}", "{x}", "{y}"].allSatisfy(url.contains) else {
            throw TilesError(
                "--tiles takes a tile URL with {z}, {x} and {y} in it, such as https://tile.example.org/{z}/{x}/{y}.png"
            )
        }
        let scheme = url.hasPrefix("https://") ? "https://" : url.hasPrefix("http://") ? "http://" : nil
        guard let scheme else { throw TilesError("--tiles takes an http:// or https:// URL, not \(url)") }
        let host = url.dropFirst(scheme.count).prefix { $0 != "/" }
        let origin = host.replacing("{s}", with: "*")
        // The policy's source grammar: a host, a leading wildcard label, a port; nothing a header could be split by.
        guard !origin.isEmpty, !origin.dropFirst(origin.hasPrefix("*.") ? 2 : 0).contains("*"),
            origin.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-:[]*".contains($0)) })
        else {
            throw TilesError("--tiles names no host the board can allow images from: \(url)")
        }
        guard !attribution.trimmingSpaces().isEmpty else {
            throw TilesError(
                "--tiles needs --tiles-attribution TEXT: what the tile source requires shown with its tiles")
        }
        self.url = url
        self.attribution = attribution
        self.origin = scheme + origin
    }

    /// Why a tile source was refused.
    package struct TilesError: Error, CustomStringConvertible {
        package let description: String
        init(_ description: String) { self.description = description }
    }

    /// A file of Leaflet's the page asks for (`/leaflet/leaflet.js`, `/leaflet/images/layers.png`), or nil for
    /// any other path: only these names, never a path that leaves the directory.
    static func leafletFile(_ path: String) -> (path: String, type: String)? {
        let types = [
            "leaflet.js": "text/javascript; charset=utf-8", "leaflet.css": "text/css; charset=utf-8",
            "images/layers.png": "image/png", "images/layers-2x.png": "image/png",
            "images/marker-icon.png": "image/png",
            "images/marker-icon-2x.png": "image/png", "images/marker-shadow.png": "image/png",
        ]
        guard path.hasPrefix("/leaflet/"), let type = types[String(path.dropFirst("/leaflet/".count))] else {
            return nil
        }
        return (leafletDirectory + "/" + path.dropFirst("/leaflet/".count), type)
    }
}
