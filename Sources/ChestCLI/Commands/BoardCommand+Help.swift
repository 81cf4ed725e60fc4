extension BoardCommand {
    /// `chest board --help`'s and the man page's words after the synopsis.
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
}
