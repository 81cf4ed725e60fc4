import FoundationEssentials

/// The board's endpoints (docs/HUNTS.md "The board in a browser"): `/`, `/board.css`, `/board.js`, `/board.json`,
/// `/events` and the results so far (`/results`, `/results.css`); GET and HEAD only, since nothing a browser sends
/// changes the board.
extension BoardServerState {
    /// Every response forbids what the page does not need: anything from elsewhere, inline script and style, frames,
    /// forms; and tells browsers not to keep it or pass the address (which may hold the token) on.
    static let securityHeaders = [
        (
            "Content-Security-Policy",
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        ),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"),
    ]

    func respond(to request: HTTPRequest) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return Self.text(
                405, "The board is read-only: only GET and HEAD are answered.\n", extra: [("Allow", "GET, HEAD")])
        }
        var cookie: [(String, String)] = []
        switch access.decide(
            path: request.path, queryToken: request.argument("token"),
            cookie: request.cookie(BoardAccess.cookieName))
        {
        case .deny:
            return Self.text(
                401,
                "This board needs its token: open it once as http://HOST:PORT/?token=TOKEN "
                    + "(the --http-token given to chest board).\n")
        case let .redirect(location):
            return HTTPResponse(
                status: 303,
                headers: Self.securityHeaders + [("Location", location), ("Set-Cookie", access.cookieHeader)],
                body: .bytes(Data()))
        case let .allow(setCookie):
            if setCookie { cookie = [("Set-Cookie", access.cookieHeader)] }
        }
        switch request.path {
        case "/":
            let response = Self.bytes(page(), type: "text/html; charset=utf-8", extra: cookie)
            return snapshot.tiles.map { Self.allowingImages(from: $0.origin, response) } ?? response
        case "/board.css": return Self.bytes(Data(BoardAssets.css.utf8), type: "text/css; charset=utf-8", extra: cookie)
        case "/board.js":
            return Self.bytes(Data(BoardAssets.javascript.utf8), type: "text/javascript; charset=utf-8", extra: cookie)
        case "/board.json":
            // `?page=N`, from 1 (docs/HUNTS.md "The board in a browser"); the first without it.
            let number = request.argument("page").map { Int($0) ?? 0 } ?? 1
            guard let (data, tag) = json(page: number) else {
                return Self.text(
                    404,
                    "Not found: /board.json has pages 1 to \(BoardJSON.pages(teams: snapshot.board.teamNames.count)) (?page=N).\n",
                    extra: cookie)
            }
            return Self.bytes(data, type: "application/json", extra: cookie + [("ETag", tag)])
        case "/results":
            // `?reveal=N`: the ceremony's last N places (docs/HUNTS.md "The ceremony"); a number or nothing.
            let reveal = request.argument("reveal").map { Int($0.prefix(9)) ?? 0 }
            // `?photos`: the accepted missions' photos beside the ranking (docs/HUNTS.md "Missions").
            let photos = request.argument("photos") != nil
            let response = Self.bytes(
                resultsPage(reveal: reveal, photos: photos), type: "text/html; charset=utf-8", extra: cookie)
            return snapshot.tiles.map { Self.allowingImages(from: $0.origin, response) } ?? response
        case "/results.css":
            return Self.bytes(Data(BoardResults.css.utf8), type: "text/css; charset=utf-8", extra: cookie)
        case "/results.js":
            return Self.bytes(Data(BoardResults.javascript.utf8), type: "text/javascript; charset=utf-8", extra: cookie)
        case "/events":
            let headers =
                Self.securityHeaders + cookie + [
                    ("Content-Type", "text/event-stream; charset=utf-8"),
                    ("X-Accel-Buffering", "no"),
                ]
            guard request.method == "GET" else {
                return HTTPResponse(status: 200, headers: headers, body: .bytes(Data()))
            }
            return HTTPResponse(status: 200, headers: headers, body: .stream(BoardEventSource(state: self)))
        case let path where path.hasPrefix(BoardPage.photoPath):
            return photo(String(path.dropFirst(BoardPage.photoPath.count)), extra: cookie)
        case let path where path.hasPrefix("/leaflet/"):
            // Debian's libjs-leaflet, for the organiser's tiles (docs/HUNTS.md "A map beneath").
            guard let file = BoardTiles.leafletFile(path), let data = FileManager.default.contents(atPath: file.path)
            else {
                return Self.text(
                    404,
                    "Not found: Leaflet is not installed (apt install libjs-leaflet); the board draws its own map.\n")
            }
            return Self.bytes(data, type: file.type, extra: cookie)
        default:
            return Self.text(404, "Not found: the board serves /, /board.json, /events and /results.\n")
        }
    }

    /// A submission's photo (docs/HUNTS.md "Missions"): only one the board took in, by its name, from the folder
    /// beside the journal, with its own content type, never as a page: nosniff, a policy that allows nothing, and a
    /// sandbox, so that even a file that is not what its name says runs nothing.
    func photo(_ name: String, extra: [(String, String)]) -> HTTPResponse {
        let snapshot = snapshot
        guard let folder = snapshot.photos,
            let submission = snapshot.submissions.first(where: { $0.photoName == name }),
            let data = FileManager.default.contents(atPath: folder + "/" + name)
        else {
            return Self.text(404, "Not found: no such photo on this board.\n")
        }
        let headers =
            Self.securityHeaders.map { header in
                header.0 == "Content-Security-Policy" ? (header.0, "default-src 'none'; sandbox") : header
            } + extra + [("Content-Type", submission.kind.contentType), ("Content-Disposition", "inline")]
        return HTTPResponse(status: 200, headers: headers, body: .bytes(data))
    }

    /// The page with the organiser's tiles: the policy lets images come from their source too, and nothing else.
    static func allowingImages(from origin: String, _ response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.headers = response.headers.map { name, value in
            (
                name,
                name == "Content-Security-Policy"
                    ? value.replacing("img-src 'self' data:", with: "img-src 'self' data: \(origin)") : value
            )
        }
        return response
    }

    private static func bytes(_ data: Data, type: String, extra: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(status: 200, headers: securityHeaders + extra + [("Content-Type", type)], body: .bytes(data))
    }

    private static func text(_ status: UInt32, _ text: String, extra: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: securityHeaders + extra + [("Content-Type", "text/plain; charset=utf-8")],
            body: .bytes(Data(text.utf8)))
    }
}
