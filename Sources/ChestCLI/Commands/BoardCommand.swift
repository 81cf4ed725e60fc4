import ChestArguments
import ChestCore
import ChestIO
import ChestSeal
import ChestWeb
import FoundationEssentials
import Glibc

/// `chest board HUNT`: the organiser's live view of every team (docs/HUNTS.md "The board"), in the terminal, as JSON
/// lines, or in a browser (`--http`, docs/HUNTS.md "The board in a browser").
struct BoardCommand: ChestCommand {
    static let name = "board"
    static let abstract = "the organiser's live board: each team, pages opened and when, trust, refused messages"
    static let synopses = [
        "HUNT [--json | --once [--timeout SECONDS]] [--columns LIST]",
        "HUNT --http [ADDR:]PORT [--http-token TOKEN] [--json | --quiet] [--tiles URL --tiles-attribution TEXT] [--columns LIST]",
        "HUNT --results [--timeout SECONDS] [-o FILE.html|FILE.json|FILE.csv]",
    ]
    static let parameters: [Parameter] = [
        .positional("HUNT", help: "the organiser's hunt file", completion: .files(extension: "hunt")),
        .json,
        .flag("--once", help: "print the leaderboard and exit"),
        .option("--timeout", value: "SECONDS", help: "with --once: how long to wait for the broker (default 10)"),
        .option(
            "--http", value: "[ADDR:]PORT", help: "also serve the board as a web page (ADDR defaults to 127.0.0.1)"),
        .option("--http-token", value: "TOKEN", help: "with --http: the token a browser must show once (?token=TOKEN)"),
        .flag("--quiet", help: "with --http: serve the page only, without the terminal board"),
        .option(
            "--tiles", value: "URL", help: "with --http: draw the map over tiles from URL, with {z}, {x} and {y} in it"),
        .option(
            "--tiles-attribution", value: "TEXT",
            help: "with --tiles: what the tile source requires shown with its tiles"),
        .option(
            "--columns", value: "LIST",
            help:
                "the web board's and the terminal board's columns, in order, from rank, team, points, pages, time, hints, adjusted, reached, trust, devices, online, refused"
        ),
        .flag("--results", help: "print the final results and exit; with -o, write them"),
        .option(
            "--output", "-o", value: "FILE",
            help: "with --results: FILE.html, FILE.json or FILE.csv (- for HTML on standard output)",
            completion: .files()),
    ]

    var huntPath: String
    var json: Bool
    var once: Bool
    var timeout: Double
    var http: HTTPAddress?
    var token: String?
    var quiet: Bool
    var tiles: BoardTiles?
    var results: Bool
    var output: String?
    /// `--columns`: nil keeps each board's own columns.
    var columns: [BoardColumn]?

    init(_ values: ParsedValues) throws(UsageError) {
        huntPath = values.positional("HUNT")[0]
        json = values.flag("--json")
        once = values.flag("--once")
        quiet = values.flag("--quiet")
        if let list = values.value("--columns") {
            switch BoardColumn.parse(list) {
            case let .success(chosen): columns = chosen
            case let .failure(error): throw UsageError("--columns \(list): \(error)")
            }
        }
        results = values.flag("--results")
        output = values.value("--output")
        if output != nil, !results { throw UsageError("-o FILE goes with --results") }
        if let output, OutputFile.namesRegularFile(output),
            ![".html", ".json", ".csv"].contains(where: { output.lowercased().hasSuffix($0) })
        {
            throw UsageError("--results writes FILE.html, FILE.json or FILE.csv, not \(output)")
        }
        if results, json || once || values.value("--http") != nil {
            throw UsageError("--results prints or writes the results once; --json, --once and --http go without it")
        }
        guard !(json && once) else { throw UsageError("--json streams and --once prints once; choose one") }
        timeout =
            try values.value("--timeout", "--timeout is a number of seconds") {
                Double($0).flatMap { $0 > 0 ? $0 : nil }
            } ?? 10
        http = try values.value(
            "--http", "--http takes [ADDR:]PORT, such as 8080, 0.0.0.0:8080 or [::1]:8080", HTTPAddress.init)
        token = values.value("--http-token")
        if let token, let problem = BoardAccess.problem(token) { throw UsageError(problem) }
        let tilesURL = values.value("--tiles")
        let attribution = values.value("--tiles-attribution")
        guard let http else {
            guard token == nil, !quiet, tilesURL == nil, attribution == nil else {
                throw UsageError("--http-token, --quiet, --tiles and --tiles-attribution go with --http [ADDR:]PORT")
            }
            return
        }
        if let tilesURL {
            do throws(BoardTiles.TilesError) {
                tiles = try BoardTiles(url: tilesURL, attribution: attribution ?? "")
            } catch {
                throw UsageError(error.description)
            }
        } else if attribution != nil {
            throw UsageError("--tiles-attribution goes with --tiles URL")
        }
        guard !once else { throw UsageError("--once prints once and exits; --http serves until stopped; choose one") }
        guard !(json && quiet) else {
            throw UsageError("--json streams to the terminal and --quiet keeps it silent; choose one")
        }
        guard http.isLoopback || token != nil else {
            throw UsageError(
                "--http \(http) lets anyone who can reach this machine read the board; add --http-token TOKEN "
                    + "(make one with: openssl rand -hex 16), or serve on 127.0.0.1")
        }
    }

    func run(settings: Settings) throws {
        let hunt = try HuntFile.read(path: huntPath)
        guard !hunt.isJoinFile else {
            throw ChestError("\(huntPath) is a team's join file; the board needs the organiser's hunt file")
        }
        // Only the organiser's identity can sign hint answers; elsewhere the board still shows everything.
        let identity = try? Identity.load(at: settings.identityPath)
        var feed = BoardFeed(hunt: hunt, huntPath: huntPath, organiser: identity)
        let past = try feed.restore()
        let link = try OrganiserLink(hunt: hunt, purpose: "board", rated: true)
        let web = try http.map { address in
            do {
                return try BoardServer(
                    address: address, access: BoardAccess(token: token),
                    snapshot: feed.snapshot(connection: .connecting, tiles: tiles, columns: columns))
            } catch {
                throw ChestError("\(error)")
            }
        }
        defer { web?.stop() }
        var loop = BoardLoop(
            feed: feed, adapters: BoardLoop.Adapters(link: link, web: web, clock: SystemClock()), tiles: tiles,
            columns: columns)
        defer { loop.finish() }
        if let web {
            printError(
                "chest: serving the board on \(web.url)" + (token == nil ? "" : "?token=TOKEN (the --http-token)"))
        }
        if results { return try writeResults(&loop) }
        // Not on a terminal, the live view has nowhere to draw: print the leaderboard, as nav prints one frame.
        if once || (web == nil && !json && !Terminal.isInteractive) {
            let (note, unreachable) = loop.gather(timeout: timeout)
            print(loop.feed.board.leaderboardText() + BoardScreen.ignoredLine(loop.feed.gate) + note)
            if let unreachable { throw unreachable }
            return
        }
        if json || (web != nil && (quiet || !Terminal.isInteractive)) {
            if json { for event in past { print(event.line) } }
            var printedWords: Set<UInt64> = []
            loop.start()
            while true {
                let events = loop.step()
                guard json else { continue }
                for event in events { print(event.line) }
                for line in loop.feed.newWordLines(printed: &printedWords) { print(line) }
                fflush(nil)
            }
        }
        Terminal.enter()
        defer { Terminal.restore() }
        var screen = BoardScreen(hunt: hunt)
        screen.web = web?.url
        screen.chosenColumns = columns
        loop.start()
        while true {
            screen.connection = loop.connection
            let keys = Terminal.keys(waiting: 0)
            if keys.contains(UInt8(ascii: "q")) || keys.contains(UInt8(ascii: "Q")) || keys.contains(3) { return }
            let size = Terminal.size
            Terminal.draw(screen.render(loop.feed, columns: size.columns, rows: size.rows, now: Date()))
            _ = loop.step()
        }
    }
}
