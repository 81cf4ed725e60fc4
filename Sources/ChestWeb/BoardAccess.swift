/// Who may read the board over HTTP (docs/HUNTS.md "The board in a browser"): anyone who can reach it when it has no
/// token (loopback, by default), else whoever shows the token once as `?token=`, after which a cookie carries it.
package struct BoardAccess: Sendable {
    package static let cookieName = "chest-board"
    package let token: String?

    package init(token: String?) {
        self.token = token
    }

    enum Decision: Equatable {
        case allow(setCookie: Bool)
        /// The token came in the address: set the cookie and send the browser to the address without it, so it
        /// does not stay in the address bar on a projector.
        case redirect(to: String)
        case deny
    }

    func decide(path: String, queryToken: String?, cookie: String?) -> Decision {
        guard let token else { return .allow(setCookie: false) }
        if let queryToken, Self.same(queryToken, token) {
            return path == "/" ? .redirect(to: "/") : .allow(setCookie: true)
        }
        if let cookie, Self.same(cookie, token) { return .allow(setCookie: false) }
        return .deny
    }

    /// The cookie that carries the token: not readable by scripts, never sent by another site's pages.
    var cookieHeader: String { "\(Self.cookieName)=\(token ?? ""); HttpOnly; SameSite=Strict; Path=/" }

    /// Why a token is not one the board accepts, or nil: long enough not to be guessed, and plain enough to travel
    /// in an address and a cookie without encoding.
    package static func problem(_ token: String) -> String? {
        guard token.utf8.count >= 16, token.utf8.count <= 256 else {
            return "--http-token must be 16 to 256 characters; make one with: openssl rand -hex 16"
        }
        guard
            token.utf8.allSatisfy({ byte in
                (0x30...0x39).contains(byte) || (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
                    || byte == UInt8(ascii: "~")
            })
        else {
            return "--http-token may hold only letters, digits, -, _, . and ~; make one with: openssl rand -hex 16"
        }
        return nil
    }

    /// Compares in time that does not depend on where the two differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
