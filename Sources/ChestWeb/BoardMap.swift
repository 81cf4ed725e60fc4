import ChestCore
import FoundationEssentials
import Glibc

/// The board's map as inline SVG, without tiles, fonts or scripts (venues are offline): the hunt's visible
/// targets with their radius and, when the hunt shares positions, each team's trail and last position as its
/// credited receipts claim them. A local equirectangular projection, exact enough over a few kilometres.
struct BoardMap {
    /// The drawing's frame; nothing it must show comes nearer its edge than a tenth of it (docs/HUNTS.md "On a
    /// projector"): a target on the edge was half off the screen.
    static let width = 800.0, height = 500.0, marginX = width / 10, marginY = height / 10
    /// The labels' size in the drawing's units (`.label` in the style sheets says the same).
    static let labelSize = 22.0
    /// Points kept per trail: the latest, so a long hunt's map stays small.
    static let trailLimit = 60

    let snapshot: BoardSnapshot
    let colours: [String: String]
    /// The results' map: whole trails, and a diamond where each credited page opened.
    var results = false

    var svg: String {
        let limit = results ? Int.max : Self.trailLimit
        let trails =
            snapshot.sharePositions
            ? snapshot.board.teams.map { ($0.name, Array($0.trail.suffix(limit))) }.filter { !$0.1.isEmpty } : []
        let corners = snapshot.targets.flatMap { target in
            [0.0, 90, 180, 270].map { target.center.offset(metres: target.radius, bearing: $0) }
        }
        let area = Self.area(targets: corners, positions: trails.flatMap(\.1))
        let points = corners + trails.flatMap(\.1).filter(area.contains)
        guard let origin = points.first else { return Self.empty(snapshot.sharePositions) }
        let projection = Projection(points: points, origin: origin)
        func f(_ value: Double) -> String { String(Int(value.rounded())) }
        var body: [String] = []
        // Labels go where they overlap no other label, dot or the scale bar, the targets' first (a handful, where
        // everyone goes), then the teams' from the leader down (MapLabelLayout, as `chest map` places them); a label
        // away from its point gets a leader line, and a team's with no room is left out: its dot keeps the team's
        // colour, which the leaderboard names.
        var requests: [(request: MapLabelLayout.Request, team: Bool)] = []
        // The scale bar's corner, and the opposite one for the count of names left out.
        var obstacles = [
            MapLabelLayout.Box(x: 8, y: Self.height - 48, width: Self.width / 5 + 40, height: 48),
            MapLabelLayout.Box(x: Self.width - 260, y: Self.height - 40, width: 260, height: 40),
        ]
        for target in snapshot.targets {
            let (x, y) = projection.xy(target.center)
            body.append(
                #"<circle class="target" cx="\#(f(x))" cy="\#(f(y))" r="\#(f(max(target.radius * projection.scale, 4)))"/>"#
            )
            requests.append(
                (
                    MapLabelLayout.Request(
                        x: x, y: y, text: Self.fitted(target.label ?? "\(target.title) p\(target.page)"),
                        fontSize: Self.labelSize), false
                ))
        }
        var far: [String] = []
        var dots: [String] = []
        var teamRequests: [(request: MapLabelLayout.Request, team: Bool)] = []
        let order = snapshot.board.leaderboard().map(\.name)
        for (team, trail) in trails.sorted(by: { (order.firstIndex(of: $0.0) ?? 0) < (order.firstIndex(of: $1.0) ?? 0) }
        ) {
            let colour = HTML.escaped(colours[team] ?? "currentColor")
            // A claimed position far from the hunt's area breaks the trail and is named, not drawn: one team's claim
            // must not shrink everyone else's map to a dot.
            for piece in Self.pieces(trail, within: area) where piece.count > 1 {
                let line = piece.map {
                    let (x, y) = projection.xy($0)
                    return "\(f(x)),\(f(y))"
                }.joined(separator: " ")
                body.append(#"<polyline class="trail" points="\#(line)" stroke="\#(colour)"/>"#)
            }
            if results, let team = snapshot.board.teams.first(where: { $0.name == team }) {
                for page in team.pages {
                    guard let spot = page.positions.last, area.contains(spot) else { continue }
                    let (x, y) = projection.xy(spot)
                    body.append(
                        #"<path class="opened" d="M \#(f(x)) \#(f(y - 8)) L \#(f(x + 8)) \#(f(y)) L \#(f(x)) \#(f(y + 8)) L \#(f(x - 8)) \#(f(y)) Z" fill="\#(colour)"><title>\#(HTML.escaped("\(team.name): \(page.title) p\(page.page)"))</title></path>"#
                    )
                }
            }
            let last = trail[trail.count - 1]
            guard area.contains(last) else {
                far.append("\(team) \(Self.distance(last.distance(to: area.center))) away")
                continue
            }
            let (x, y) = projection.xy(last)
            dots.append(
                #"<circle class="team" cx="\#(f(x))" cy="\#(f(y))" r="9" fill="\#(colour)"><title>\#(HTML.escaped(team))</title></circle>"#
            )
            obstacles.append(MapLabelLayout.Box(x: x - 10, y: y - 10, width: 20, height: 20))
            teamRequests.append((MapLabelLayout.Request(x: x, y: y, text: team, fontSize: Self.labelSize), true))
        }
        if !far.isEmpty {
            obstacles.append(MapLabelLayout.Box(x: 0, y: 0, width: Self.width, height: 40))
            body.append(
                #"<text class="label far" x="16" y="30">Off the map: \#(HTML.escaped(far.joined(separator: ", ")))</text>"#
            )
        }
        requests += teamRequests
        let layout = MapLabelLayout(
            frame: MapLabelLayout.Box(x: 4, y: 4, width: Self.width - 8, height: Self.height - 8),
            obstacles: obstacles)
        let placed = layout.place(requests.map(\.request)).placed
        var labels: [String] = []
        for label in placed {
            let (request, team) = requests[label.index]
            if label.needsLeader {
                let (ex, ey) = label.box.nearest(to: request.x, request.y)
                body.append(
                    #"<line class="leader" x1="\#(f(request.x))" y1="\#(f(request.y))" x2="\#(f(ex))" y2="\#(f(ey))"/>"#
                )
            }
            let baseline = label.box.y + label.fontSize * 1.0
            labels.append(
                #"<text class="label\#(team ? " team" : "")" x="\#(f(label.box.x + 2))" y="\#(f(baseline))">\#(HTML.escaped(label.text))</text>"#
            )
        }
        let unnamed = requests.count - placed.count
        body += dots + labels
        if unnamed > 0 {
            body.append(
                #"<text class="label note" x="\#(f(Self.width - 16))" y="\#(f(Self.height - 16))" text-anchor="end">\#(unnamed) labels left out</text>"#
            )
        }
        body += scaleBar(projection.scale)
        return Self.frame(body.joined(separator: "\n"), bounds: projection.bounds, tiled: snapshot.tiles != nil)
    }

    /// A target's label at most two fifths of the frame wide: a long title keeps its start and its page, "Old town
    /// walk: start at… p1", so it finds room instead of being left out.
    static func fitted(_ label: String) -> String {
        let most = width * 0.4
        guard MapLabelLayout.width(of: label, fontSize: labelSize) > most else { return label }
        let digits = label.reversed().prefix { $0.isASCII && $0.isNumber }.count
        let page = digits > 0 && label.dropLast(digits).hasSuffix(" p") ? String(label.suffix(digits + 2)) : ""
        var kept = String(label.dropLast(page.count))
        while !kept.isEmpty, MapLabelLayout.width(of: kept + "\u{2026}" + page, fontSize: labelSize) > most {
            kept.removeLast()
        }
        while kept.last == " " { kept.removeLast() }
        return kept + "\u{2026}" + page
    }

    /// The part of the world the map shows: around the targets (or, without any, around the middle of the positions),
    /// reaching as far again as they spread, and at least `reach` metres.
    struct Area {
        var center: Coordinate
        var radius: Double

        func contains(_ point: Coordinate) -> Bool { point.distance(to: center) <= radius }
    }

    static let reach = 2_000.0

    static func area(targets: [Coordinate], positions: [Coordinate]) -> Area {
        let anchor = targets.isEmpty ? positions : targets
        guard !anchor.isEmpty else { return Area(center: Coordinate(latitude: 0, longitude: 0), radius: 0) }
        let center: Coordinate
        if targets.isEmpty {
            // The median, which a few far claims cannot drag.
            let latitudes = anchor.map(\.latitude).sorted()
            let longitudes = anchor.map(\.longitude).sorted()
            center = Coordinate(latitude: latitudes[latitudes.count / 2], longitude: longitudes[longitudes.count / 2])
        } else {
            center = Coordinate(
                latitude: anchor.map(\.latitude).reduce(0, +) / Double(anchor.count),
                longitude: anchor.map(\.longitude).reduce(0, +) / Double(anchor.count))
        }
        let spread = targets.map { $0.distance(to: center) }.max() ?? 0
        return Area(center: center, radius: max(reach, 2 * spread))
    }

    /// The runs of a trail inside the area.
    static func pieces(_ trail: [Coordinate], within area: Area) -> [[Coordinate]] {
        var pieces: [[Coordinate]] = [[]]
        for point in trail {
            if area.contains(point) {
                pieces[pieces.count - 1].append(point)
            } else if !pieces[pieces.count - 1].isEmpty {
                pieces.append([])
            }
        }
        return pieces
    }

    static func distance(_ metres: Double) -> String {
        metres >= 10_000
            ? "\(Int((metres / 1000).rounded())) km"
            : metres >= 1000 ? String(printf: "%.1f km", metres / 1000) : "\(Int(metres)) m"
    }

    /// A bar of a round length (1, 2 or 5 times a power of ten metres) about a fifth of the width.
    private func scaleBar(_ scale: Double) -> [String] {
        let wanted = Self.width / 5 / scale
        let power = pow(10, floor(log10(wanted)))
        let length = [1.0, 2, 5, 10].map { $0 * power }.last { $0 <= wanted } ?? power
        let y = Self.height - 16
        let end = 16 + length * scale
        let label = length >= 1000 ? String(printf: "%g km", length / 1000) : "\(Int(length)) m"
        return [
            #"<path class="scale" d="M 16 \#(y - 6) V \#(y) H \#(String(printf: "%.1f", end)) V \#(y - 6)"/>"#,
            #"<text class="label" x="16" y="\#(y - 12)">\#(label)</text>"#,
        ]
    }

    /// The drawing; with `bounds` (south, west, north, east of its frame), the page's script lays the organiser's
    /// tiles beneath it, and a `tiled` drawing leaves its sea out so that they show.
    private static func frame(_ body: String, bounds: [Double]? = nil, tiled: Bool = false) -> String {
        let edges =
            bounds.map { #" data-bounds="\#($0.map { String(printf: "%.6f", $0) }.joined(separator: ","))""# } ?? ""
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(Int(width)) \(Int(height))" role="img" aria-label="map"\(edges)\(tiled ? #" class="tiled""# : "")>
            <rect class="sea" width="\(Int(width))" height="\(Int(height))"/>
            \(body)
            </svg>
            """
    }

    private static func empty(_ sharePositions: Bool) -> String {
        let why =
            sharePositions
            ? "No visible target and no position yet." : "No visible target; this hunt does not share positions."
        return frame(#"<text class="label" x="24" y="48">\#(why)</text>"#)
    }

    /// Metres east and north of an origin, scaled into the frame with a margin, north up.
    struct Projection {
        let origin: Coordinate
        let cosine: Double
        let minX: Double, minY: Double
        let scale: Double
        let offsetX: Double, offsetY: Double
        static let metresPerDegree = Coordinate.earthRadius * .pi / 180

        init(points: [Coordinate], origin: Coordinate) {
            self.origin = origin
            cosine = cos(origin.latitude * .pi / 180)
            let metres = points.map { [cosine] point in
                (
                    (point.longitude - origin.longitude) * Self.metresPerDegree * cosine,
                    (point.latitude - origin.latitude) * Self.metresPerDegree
                )
            }
            minX = metres.map(\.0).min() ?? 0
            minY = metres.map(\.1).min() ?? 0
            let spanX = max((metres.map(\.0).max() ?? 0) - minX, 1)
            let spanY = max((metres.map(\.1).max() ?? 0) - minY, 1)
            scale = min(
                (BoardMap.width - 2 * BoardMap.marginX) / max(spanX, 50),
                (BoardMap.height - 2 * BoardMap.marginY) / max(spanY, 50))
            offsetX = (BoardMap.width - spanX * scale) / 2
            offsetY = (BoardMap.height - spanY * scale) / 2
        }

        /// The latitude and longitude at a point of the frame: where the tiles beneath must match it.
        func coordinate(_ x: Double, _ y: Double) -> Coordinate {
            let east = (x - offsetX) / scale + minX
            let north = (BoardMap.height - offsetY - y) / scale + minY
            return Coordinate(
                latitude: origin.latitude + north / Self.metresPerDegree,
                longitude: origin.longitude + east / (Self.metresPerDegree * cosine))
        }

        /// South, west, north and east of the whole frame.
        var bounds: [Double] {
            let southWest = coordinate(0, BoardMap.height)
            let northEast = coordinate(BoardMap.width, 0)
            return [southWest.latitude, southWest.longitude, northEast.latitude, northEast.longitude]
        }

        func xy(_ point: Coordinate) -> (Double, Double) {
            let x = (point.longitude - origin.longitude) * Self.metresPerDegree * cosine
            let y = (point.latitude - origin.latitude) * Self.metresPerDegree
            return (offsetX + (x - minX) * scale, BoardMap.height - offsetY - (y - minY) * scale)
        }
    }
}

extension Coordinate {
    /// The point `metres` away toward `bearing` (degrees from north), close enough over a target's radius.
    func offset(metres: Double, bearing: Double) -> Coordinate {
        let angle = bearing * .pi / 180
        let degrees = metres / BoardMap.Projection.metresPerDegree
        return Coordinate(
            latitude: latitude + degrees * cos(angle),
            longitude: longitude + degrees * sin(angle) / max(cos(latitude * .pi / 180), 0.01))
    }
}
