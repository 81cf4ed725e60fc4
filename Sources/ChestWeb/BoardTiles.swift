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

    /// The head's lines that load Leaflet, which the board serves itself.
    static let head = """
        <link rel="stylesheet" href="/leaflet/leaflet.css">
        <script src="/leaflet/leaflet.js" defer></script>

        """

    /// The map's frame with the tiles beneath the drawing (`svg`, its element's ID `id`) and their attribution on a
    /// line under them, over nothing of the drawing.
    func frame(_ svg: String, id: String = "map", fill: Bool = true) -> String {
        #"<div class="\#(fill ? "fill " : "")tiled"><div id="tiles" data-url="\#(HTML.escaped(url))"></div><div class="over" id="\#(id)">"#
            + svg + #"</div><p class="attribution">\#(HTML.escaped(attribution))</p></div>"#
    }

    /// The pages' script that lays the tiles beneath the drawing: `drawTilesUnder(over)` puts Leaflet in `#tiles` at
    /// the drawing's frame (its viewBox, fitted whole in `over`), showing its south-west to north-east; nothing
    /// moves it. Returns the zoom, or null without tiles.
    static let script = """
              let tileMap = null;
              function drawTilesUnder(over) {
                const holder = document.getElementById("tiles");
                const svg = over && over.querySelector("svg[data-bounds]");
                if (!holder || !svg || !window.L) { return null; }
                const box = over.getBoundingClientRect();
                const scale = Math.min(box.width / 800, box.height / 500);
                const width = 800 * scale, height = 500 * scale;
                holder.style.left = ((box.width - width) / 2) + "px";
                holder.style.top = ((box.height - height) / 2) + "px";
                holder.style.width = width + "px";
                holder.style.height = height + "px";
                if (!tileMap) {
                  tileMap = L.map(holder, { zoomControl: false, attributionControl: false, dragging: false, touchZoom: false,
                    scrollWheelZoom: false, doubleClickZoom: false, boxZoom: false, keyboard: false, zoomSnap: 0,
                    fadeAnimation: false, zoomAnimation: false, markerZoomAnimation: false, inertia: false });
                  L.tileLayer(holder.dataset.url, { maxZoom: 19, detectRetina: false }).addTo(tileMap);
                }
                tileMap.invalidateSize({ animate: false });
                const edges = svg.dataset.bounds.split(",").map(Number);
                tileMap.fitBounds([[edges[0], edges[1]], [edges[2], edges[3]]], { animate: false, padding: [0, 0] });
                return tileMap.getZoom();
              }
        """

    /// The tiles' style, the board's and the results': the attribution on a line of its own under the tiles, and
    /// over them the drawing in dark ink on a light halo whatever the page's scheme, since tiles are light
    /// (OpenStreetMap's are) and a dark page's light labels faded into them.
    static let css = """
        .tiled { position: relative; }
        .tiled > #tiles { position: absolute; z-index: 0; background: #eef3f6; }
        .tiled > .over { position: absolute; inset: 0 0 1.1rem 0; z-index: 1; pointer-events: none; }
        svg.tiled .sea { fill-opacity: 0; }
        .attribution { position: absolute; z-index: 2; right: 0; bottom: 0; left: 0; height: 1.1rem; margin: 0;
          font-size: 0.7rem; line-height: 1.1rem; text-align: right; color: var(--muted); white-space: nowrap;
          overflow: hidden; text-overflow: ellipsis; }
        svg.tiled { --fg: #1b1b1b; --muted: #4a4a4a; --bg: #ffffff; --target: #1f5fa8; }
        svg.tiled .label { paint-order: stroke; stroke: #ffffff; stroke-width: 5px; stroke-linejoin: round; }

        """

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
