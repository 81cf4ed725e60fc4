import ChestCore
import ChestGPS
import ChestIO
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// GPSReader handing its connections to a loop of the caller's, as chestd's loop reads gpsd
/// (docs/ARCHITECTURE.md "One loop").
@Suite(.realProcesses, .tags(.process), .timeLimit(.minutes(1)))
struct GPSDConnectionHandOverTests {
    /// What the test's loop hears, in the order it hears it.
    enum Heard: Sendable, Equatable {
        case event(GPSEvent)
        case connection
    }

    @Test func aHandedOverConnectionIsReadByTheLoopAndALossMakesTheReaderConnectAgain() async throws {
        let server = try LineServer(
            lines: [
                #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#,
                #"{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"2026-06-01T09:00:00.000Z","lat":47.3769,"lon":8.5417,"altMSL":410.0}"#,
            ], hangsUp: true)
        defer { server.stop() }
        enum Posted: Sendable {
            case event(GPSEvent)
            case connection(GPSDConnection)
            case stop
        }
        let mailbox = try Mailbox<Posted>()
        let heard = EventRecorder<Heard>()
        let reader = GPSReader(
            host: "127.0.0.1", port: String(server.port), log: Log(sink: { _ in }),
            receivers: ReceiverSource(sysfsRoot: "/nonexistent"),
            onEvent: { mailbox.yield(.event($0)) },
            onConnection: { mailbox.yield(.connection($0)) })
        let loopEnded = EventRecorder<Bool>()
        // The caller's loop, on a thread of its own as chestd's is: it reads the connection it was handed.
        Thread {
            var connection: GPSDConnection?
            while true {
                let wake = mailbox.wait(orReadable: connection?.descriptor)
                if wake.readable, let open = connection,
                    let lost = open.readAvailable({ heard.record(.event($0)) })
                {
                    connection = nil
                    open.end(lost)
                }
                for posted in wake.events {
                    switch posted {
                    case .event(let event): heard.record(.event(event))
                    case .connection(let handed):
                        connection = handed
                        heard.record(.connection)
                    case .stop:
                        loopEnded.record(true)
                        return
                    }
                }
            }
        }.start()
        let start = MonotonicClock.now()
        reader.start()
        let fixes = { (heard: [Heard]) in heard.filter { if case .event(.fix) = $0 { true } else { false } }.count }
        // The server hangs up after its lines: the loop reads the fix, finds the loss, ends the connection; the
        // reader reports the loss and, after a second's backoff, connects again and hands over a new connection.
        #expect(await heard.wait(timeout: 30) { fixes($0) >= 2 })
        // The reader waited out its first backoff (1 s) before connecting again.
        #expect(MonotonicClock.now() - start >= 0.9)
        mailbox.yield(.stop)
        #expect(await loopEnded.wait(timeout: 5) { !$0.isEmpty })
        reader.stop()
        let name = "127.0.0.1:\(server.port)"
        let firstRound = Array(heard.all.prefix(4))
        #expect(firstRound.count == 4)
        #expect(firstRound[0] == .event(.connected(server: name)))
        #expect(firstRound[1] == .connection)
        if case .event(.fix(let fix)) = firstRound[2] {
            #expect(fix.coordinate == Coordinate(latitude: 47.3769, longitude: 8.5417))
        } else {
            Issue.record("expected the fix third, got \(firstRound[2])")
        }
        #expect(firstRound[3] == .event(.disconnected(server: name, reason: "gpsd closed the connection")))
        #expect(heard.all.filter { $0 == .connection }.count >= 2)
    }
}
