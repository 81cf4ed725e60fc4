import ChestArguments
import ChestCore
import ChestIO
import ChestMQTT
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
    static let discussion = """
        Follows the hunt's broker and redraws in place, like chest nav: each team ranked by points, online or not, \
        the pages credited to it and when the board heard of them, the time and trust the team claims, and the \
        messages refused and why; when the teams do not fit the terminal under the hunt's name, the time and the \
        column heads, they are paged, a page every 8 s. q quits. --json streams the same as JSON lines (team, unlock, hint, adjusted, \
        refused); --once prints the leaderboard and exits. What the board received is kept in HUNT.board, so it \
        survives restarts; the broker keeps what arrives while it is away.

        The board believes only what is proven: a receipt is credited when its message was composed with compose \
        --hunt HUNT, its page exists, its proof of opening was made with the page's key and its reader is one the \
        team claimed; otherwise it is refused as unknownMessage, noProof, badProof, wrongReader, wrongTopic \
        (another team's receipt re-sent) or badReceipt. A guarded page (no PIN, sealed place or release in its set) \
        is shown as "unproven: guarded page" and scores nothing. Teams are ranked by points (each proven page's \
        points, less the hints the board gave them, plus the organiser's adjustments), then by when the board heard \
        their last point, never by the time they claim. Run with the organiser's identity, the board answers the \
        teams' hint requests with the hint's key sealed to the team's reader, and charges its cost once; at the \
        start in force it publishes the hunt's start key (chest hunt start).

        --http serves the board as a web page for a projector as well, from the same verified state, live \
        (Server-Sent Events) and read-only: the leaderboard, a map of the visible targets (and each team's trail \
        when the hunt shares positions), the latest pages credited, the refusals, and the time to the start, then \
        to the end, then the final ranking. It listens on ADDR (127.0.0.1 when left out; [::1] for IPv6) and PORT \
        (0 takes a free one), and says its address on standard error. Any address but the loopback needs \
        --http-token, 16 to 256 letters, digits, -, _, . or ~ (openssl rand -hex 16): a browser gives it once as \
        ?token=TOKEN and then carries it in a cookie. The page travels in clear HTTP: use it on the venue's own \
        network. --quiet serves the page without the terminal board (so does a board whose output is not a \
        terminal). Endpoints: / (the page), /events (the live stream), /board.json (the leaderboard, 200 teams a \
        page: ?page=N for the next), /results (?reveal=N for the ceremony: only the last N places, space or → \
        reveals the next). \
        --tiles draws the map over tiles from URL ({z}, {x} and {y} in it, {s} for a subdomain) through Leaflet from \
        the libjs-leaflet package, with the attribution the tile source requires (--tiles-attribution); without it \
        the board draws its map alone, offline (docs/HUNTS.md "The board in a browser").

        --results gathers what the broker holds, as --once does, and prints the final ranking, or writes the \
        results to -o FILE: .html (a page to print, A4 or Letter, or to put on the big screen: the ranking, each \
        team's pages and when the board heard of them, the time from first to last page, and the distance walked \
        and the tracks on the map when the hunt shares positions), .json or .csv.

        examples:
          chest board spring-hunt.hunt --http 8080 --quiet
          chest board spring-hunt.hunt --http 0.0.0.0:8080 --http-token TOKEN
          chromium --kiosk "http://192.168.1.20:8080/?token=TOKEN"
          chest board spring-hunt.hunt --results -o results.html
        """
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
        defer { feed.stop(at: Date()) }
        let link = try OrganiserLink(hunt: hunt, purpose: "board", rated: true)
        defer { link.stop() }
        // QoS 0: the broker then sends the board each message as it comes, not 20 at a time with each one's
        // acknowledgement awaited, so a team that floods cannot keep receipts queued behind its own in those 20 slots.
        // QoS 1 would give the board nothing more: its session is clean, so the broker forgets what it owed the
        // board when the connection drops, and everything the board reads is retained, sent again on the next
        // subscription; what the broker cannot queue it drops at either QoS (docs/HUNTS.md "A team that floods").
        link.client.subscribe(HuntTopic.all(hunt: hunt.id), qos: 0)
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
        if let web {
            printError(
                "chest: serving the board on \(web.url)" + (token == nil ? "" : "?token=TOKEN (the --http-token)"))
        }
        var published: BrokerState?
        var publishedWord: UInt64?
        var publishedSchedule: HuntSchedule?
        var publishedIgnored: [HuntGate.Refusal: Int] = [:]
        var printedWords: Set<UInt64> = []
        var pending: [BoardEvent] = []
        var lastPublished = ContinuousClock.now - .seconds(60)
        // A snapshot shares the board's per-team state until the next message changes it, which then copies all of
        // it, and each one is rendered for the streams: per message, that is a cost in the number of teams. Above
        // 500 teams the browsers get the board at most every 0.2 ms a team (5,000 teams: once a second), every
        // event still in order (docs/BENCHMARKS.md "A city").
        let interval = Duration.seconds(hunt.teams.count <= 500 ? 0 : Double(hunt.teams.count) * 0.000_2)
        /// Hands the browsers the board as it is now, when it changed.
        func publish(_ feed: BoardFeed, _ events: [BoardEvent], _ connection: BrokerState) {
            guard let web else { return }
            pending += events
            let newWord = feed.core.words.last?.said.id != publishedWord
            // A new schedule is no board event, yet the page's countdown and its turn to the final ranking follow it
            // (docs/HUNTS.md "The hunt's start and end").
            let newSchedule = feed.core.schedule != publishedSchedule
            // Refusals counted unread (a flood beyond its rate, a full queue) are shown once a minute as events, and
            // counted meanwhile: the page's counts follow them (docs/HUNTS.md "A team that floods").
            let newCounts = feed.gate.refused != publishedIgnored
            guard !pending.isEmpty || connection != published || newWord || newSchedule || newCounts else { return }
            guard connection != published || ContinuousClock.now - lastPublished >= interval else { return }
            published = connection
            publishedWord = feed.core.words.last?.said.id
            publishedSchedule = feed.core.schedule
            publishedIgnored = feed.gate.refused
            lastPublished = .now
            web.publish(feed.snapshot(connection: connection, tiles: tiles, columns: columns), events: pending)
            pending = []
        }
        if results { return try writeResults(hunt, &feed, link) }
        // Not on a terminal, the live view has nowhere to draw: print the leaderboard, as nav prints one frame.
        if once || (web == nil && !json && !Terminal.isInteractive) { return try printOnce(hunt, &feed, link) }
        if json || (web != nil && (quiet || !Terminal.isInteractive)) {
            if json { for event in past { print(event.line) } }
            link.client.start()
            return stream(&feed, link) { feed, events, connection in
                publish(feed, events, connection)
                if json {
                    for event in events { print(event.line) }
                    for line in feed.newWordLines(printed: &printedWords) { print(line) }
                    fflush(nil)
                }
                return true
            }
        }
        Terminal.enter()
        defer { Terminal.restore() }
        link.client.start()
        var screen = BoardScreen(hunt: hunt)
        screen.web = web?.url
        screen.chosenColumns = columns
        stream(&feed, link) { feed, events, connection in
            publish(feed, events, connection)
            screen.connection = connection
            let keys = Terminal.keys(waiting: 0)
            if keys.contains(UInt8(ascii: "q")) || keys.contains(UInt8(ascii: "Q")) || keys.contains(3) { return false }
            let size = Terminal.size
            Terminal.draw(screen.render(feed, columns: size.columns, rows: size.rows, now: Date()))
            return true
        }
    }

    /// Hands each batch of events to `handle` (at least every 200 ms) until it returns false or input ends.
    private func stream(
        _ feed: inout BoardFeed, _ link: OrganiserLink,
        _ handle: (BoardFeed, [BoardEvent], BrokerState) -> Bool
    ) {
        var connection = BrokerState.connecting
        _ = handle(feed, [], connection)
        while true {
            var events: [BoardEvent] = []
            for event in link.events(within: feed.wait(at: Date(), longest: 0.2)) {
                switch event {
                case let .message(topic, payload, retained):
                    events += feed.receive(topic: topic, payload: payload, retained: retained, at: Date())
                case .connected: connection = .connected
                case let .connectionRefused(why): connection = .refused(why)
                case let .disconnected(why): connection = .reconnecting(why)
                case .delivered: break
                }
            }
            events += feed.refuse(link.takeRefused())
            feed.queueStart(at: Date())
            events += feed.tick(at: Date())
            Self.answer(&feed, link)
            if !handle(feed, events, connection) { return }
        }
    }

    /// Publishes the hint answers the board owes; those the broker cannot take now wait for the next connection.
    static func answer(_ feed: inout BoardFeed, _ link: OrganiserLink) {
        var unsent: [MQTTMessage] = []
        for message in feed.takeOutgoing() {
            do {
                _ = try link.client.publish(message)
            } catch {
                unsent.append(message)
            }
        }
        feed.requeue(unsent)
    }

    /// Gathers what the broker holds, as --once does, then prints the results or writes them to `output`. When
    /// the broker cannot be reached, the results are made from what the board received before, and it says so.
    private func writeResults(_ hunt: HuntFile, _ feed: inout BoardFeed, _ link: OrganiserLink) throws {
        let (note, unreachable) = gather(hunt, &feed, link)
        let results = BoardResults(feed.snapshot(connection: unreachable == nil ? .connected : .unreachable))
        guard let output else {
            print(results.text + note.trimmingNewlines())
            return
        }
        let data: Data =
            switch output.lowercased().suffix(4) {
            case "json": results.json
            case ".csv": Data(results.csv.utf8)
            default: Data(results.html(timeZone: .current).utf8)
            }
        try OutputFile(checking: output).write(checked: data)
        printError(
            "chest: wrote the results of \(results.teams.count) teams to \(output)" + note.replacing("\n", with: " "))
    }

    /// Waits for the broker's retained and queued messages to arrive; a note for the reader when they were still
    /// coming or the broker could not be reached, and why not.
    private func gather(_ hunt: HuntFile, _ feed: inout BoardFeed, _ link: OrganiserLink) -> (String, (any Error)?) {
        var note = ""
        var unreachable: (any Error)?
        do {
            try link.connect(within: timeout, broker: hunt.broker)
            // Retained statuses and receipts come in a burst; a quiet second ends it.
            let deadline = MonotonicClock.now() + timeout
            var quiet = false
            while !quiet, MonotonicClock.now() < deadline {
                guard let event = link.next(within: 1) else {
                    quiet = true
                    break
                }
                if case let .message(topic, payload, retained) = event {
                    _ = feed.receive(topic: topic, payload: payload, retained: retained, at: Date())
                }
            }
            _ = feed.refuse(link.takeRefused())
            if !quiet {
                note = "\n(messages were still arriving after \(Int(timeout)) s; a longer --timeout shows them all)"
            }
        } catch {
            note = "\n(what the board received before)"
            unreachable = error
        }
        return (note, unreachable)
    }

    /// Waits for the broker's retained and queued messages to arrive, then prints the leaderboard. When the broker
    /// cannot be reached, the board as it was last received is printed, and the command fails saying why.
    private func printOnce(_ hunt: HuntFile, _ feed: inout BoardFeed, _ link: OrganiserLink) throws {
        let (note, unreachable) = gather(hunt, &feed, link)
        print(feed.board.leaderboardText() + BoardScreen.ignoredLine(feed.gate) + note)
        if let unreachable { throw unreachable }
    }
}
