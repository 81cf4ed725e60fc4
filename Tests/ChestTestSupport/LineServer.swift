import ChestIO
import Foundation
import Glibc

/// A loopback server that sends fixed lines to each client it accepts: a gpsd that says what a test wants, which
/// a real gpsd would not. It keeps each connection open until the client leaves, or hangs up once the lines
/// are sent (`hangsUp`), as a gpsd that goes away would. It accepts clients one after another until stopped.
package final class LineServer: Sendable {
    package let port: Int
    private let listener: Int32

    package init(lines: [String], hangsUp: Bool = false) throws {
        let (socket, port) = try LoopbackSocket.bound(listening: 4)
        let listener = socket.rawValue
        self.listener = listener
        self.port = port
        let text = lines.map { $0 + "\n" }.joined()
        Thread {
            // The thread closes the listener, not `stop()`: a number closed while this thread may still call
            // accept(2) on it can be handed to another test's socket first, and this thread would then serve that
            // one's clients these lines.
            defer { close(listener) }
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 && errno == EINTR { continue }
                guard client >= 0 else { return }
                _ = text.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
                // Hanging up is a shutdown, then reading until the client closes: a close with the client's
                // ?WATCH unread would send a reset, which can discard the lines before the client reads them.
                if hangsUp { shutdown(client, Int32(SHUT_WR)) }
                var byte: UInt8 = 0
                while recv(client, &byte, 1, 0) > 0 {}
                close(client)
            }
        }.start()
    }

    /// Refuses clients from now on: accept(2) fails on the shut listener, and the thread ends once the client it
    /// serves, if any, has left.
    package func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
    }
}
