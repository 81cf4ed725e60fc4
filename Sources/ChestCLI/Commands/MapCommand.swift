import ChestArguments
import ChestCore
import ChestIO
import FoundationEssentials
import Glibc

/// `chest map [ID...] -o FILE.svg|FILE.png [--png]`: the recorded track, the targets and where pages opened, as SVG
/// or PNG.
struct MapCommand: ChestCommand {
    static let name = "map"
    static let abstract = "draw the recorded track, the targets and where pages opened, as SVG or PNG"
    static let synopses = ["[ID...] -o FILE.svg|FILE.png [--png]"]
    static let discussion = """
        Draws the track chestd recorded (the last 6 hours of fixes, in the chest directory's track.txt) with \
        its start (a ring), its end (a square) and chevrons in the direction walked, broken where no fix came \
        for more than 30 s; each location lock whose point is in the clear with its radius (blue, green once its \
        page is open), named by the organiser's name for the place (a quest's waypoint, or ,visible=NAME) or the \
        message's title and page; where each page opened (an orange diamond labelled "TITLE pN opened HH:MM:SS"); \
        a scale bar, a north arrow and a legend. No map tiles and no network. Labels never overlap each other or \
        leave the picture: one with no room is numbered on the map and written out in a key under the legend. \
        Sealed places are not drawn (their point is not in the file). With IDs, only those messages. \
        -o FILE.png writes a PNG (rendered by rsvg-convert, from librsvg2-bin, or ImageMagick's convert); \
        -o FILE.svg writes SVG, and --png also writes FILE.png beside it. Any other extension is refused.
        """
    static let parameters: [Parameter] = [
        .positional(
            "ID", arity: Arity(0, .max), help: "messages to draw (default: every message)",
            completion: .shellCommand(Chest.listIDs)),
        .option(
            "--output", "-o", value: "FILE.svg|FILE.png", help: "the file to write: FILE.svg or FILE.png",
            completion: .files(extension: "svg")),
        .flag("--png", help: "also write a PNG beside it"),
    ]

    var ids: [String]
    var output: String
    var png: Bool

    init(_ values: ParsedValues) throws(UsageError) {
        ids = values.positional("ID")
        guard let output = values.value("--output") else { throw UsageError("map needs -o FILE.svg or -o FILE.png") }
        // Standard output, a FIFO or a device takes SVG (PNG when its name ends .png) whatever its name.
        let isFile = OutputFile.namesRegularFile(output)
        guard !isFile || [".svg", ".png"].contains(where: { output.lowercased().hasSuffix($0) }) else {
            throw UsageError("map writes SVG or PNG: name the file FILE.svg or FILE.png, not \(output)")
        }
        self.output = output
        png = values.flag("--png")
        if png, !isFile || !output.lowercased().hasSuffix(".svg") {
            throw UsageError("--png writes FILE.png beside -o FILE.svg; for a PNG alone, -o FILE.png")
        }
    }

    func run(settings: Settings) throws {
        let contents = try ChestContents(settings: settings, prefixes: ids)
        var drawing = MapDrawing()
        drawing.track = contents.track.points.map(\.coordinate)
        drawing.times = contents.track.points.map(\.time)
        drawing.circles = contents.targets.map {
            .init(center: $0.center, radius: $0.radius, label: $0.name, open: $0.open)
        }
        // Where a page opened: the unlock's own last fix, else the track where the receiver's (or the clock's) time was.
        drawing.marks = contents.openings.compactMap { opening in
            (opening.place ?? contents.position(at: opening.gpsTime ?? opening.at)).map {
                .init(
                    at: $0,
                    label: MapDrawing.openingLabel(
                        title: opening.message.title, page: opening.page,
                        time: LockReason.clock(opening.at, .current)))
            }
        }
        if let first = contents.track.points.first, let last = contents.track.points.last {
            drawing.title =
                "chest map · track \(LockReason.format(first.time, .current)) to \(LockReason.format(last.time, .current))"
            drawing.startLabel = "start \(LockReason.clock(first.time, .current))"
            drawing.endLabel = "end \(LockReason.clock(last.time, .current))"
        }
        let svg = Data(drawing.svg.utf8)
        if output.lowercased().hasSuffix(".png") {
            try OutputFile(checking: output).write(checked: try Self.png(from: svg))
            return
        }
        try OutputFile(checking: output).write(checked: svg)
        if png { try OutputFile(checking: String(output.dropLast(4)) + ".png").write(checked: try Self.png(from: svg)) }
    }

    /// The SVG rendered to PNG by the first converter installed, in a directory of its own (the output may be a
    /// FIFO or a device, which no converter should open).
    private static func png(from svg: Data) throws -> Data {
        let directory: String
        do { directory = try Directory.makeTemporary("chest-map") } catch {
            throw ChestError("cannot make a temporary directory: \(error)")
        }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (svgPath, pngPath) = (directory + "/map.svg", directory + "/map.png")
        do { try AtomicFile.write(svg, to: svgPath) } catch {
            throw ChestError("cannot write \(svgPath): \(error.errno)")
        }
        try convert(svgPath, to: pngPath)
        guard let data = FileManager.default.contents(atPath: pngPath) else {
            throw ChestError("the map's PNG was not written")
        }
        return data
    }

    /// The SVG rendered to PNG, through the first converter installed.
    private static func convert(_ svg: String, to png: String) throws {
        let converters = [("rsvg-convert", ["-o", png, svg]), ("convert", [svg, png])]
        for (name, arguments) in converters {
            guard let executable = SearchPath.find(name) else { continue }
            let pid = try ProcessSpawner.spawn(
                executable, arguments: arguments, environment: ProcessInfo.processInfo.environment)
            guard ProcessSpawner.wait(for: pid) == 0 else {
                throw ChestError("\(name) could not render the map to \(png)")
            }
            return
        }
        throw ChestError(
            "a PNG map needs rsvg-convert (Debian: librsvg2-bin) or ImageMagick's convert; write -o FILE.svg instead")
    }
}
