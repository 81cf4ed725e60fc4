import ChestCore
import ChestTestSupport
import Foundation
import Glibc
import Testing

@testable import ChestIO
@testable import ChestWeather

/// What a weather server can make the helper hold (docs/WEATHER.md "What a reply may be", issue 61): at most 256 kB,
/// headers and the decoded body together, and no redirect to plain http. A reply is about 300 bytes.
@Suite(.timeLimit(.minutes(2)))
struct WeatherReplyLimitTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    let here = Coordinate(latitude: 48.858_372, longitude: 2.294_481)

    /// Open-Meteo's reply for snow at -1 °C, observed at `observed` (as WeatherServer sends it).
    static func openMeteoBody(observed: Int) -> String {
        #"{"latitude":48.864,"longitude":2.287,"generationtime_ms":0.02,"utc_offset_seconds":0,"timezone":"GMT","#
            + #""timezone_abbreviation":"GMT","elevation":38.0,"current_units":{"time":"unixtime","#
            + #""interval":"seconds","weather_code":"wmo code","temperature_2m":"°C"},"current":{"time":\#(observed),"#
            + #""interval":900,"weather_code":73,"temperature_2m":-1.0}}"#
    }

    @Test func aReplyLongerThanTheLimitIsNotReadEvenWhenItIsValidJSON() async throws {
        // 300 kB of spaces before a valid reply: JSON allows them, and the helper used to keep them all.
        let padded = String(repeating: " ", count: 300_000) + Self.openMeteoBody(observed: 1_789_999_200)
        let server = try WeatherServer(scenario: .raw(status: 200, body: padded))
        let error = await #expect(throws: WeatherError.self) {
            try await OpenMeteoProvider(baseURL: server.baseURL).fetch(at: here, now: now)
        }
        #expect(
            error?.description
                == "open-meteo sent an unreadable reply: it is larger than 256 kB (a reply is under 1 kB); "
                + "not read")
        // Just under the limit is read.
        server.scenario = .raw(status: 200, body: String(repeating: " ", count: 200_000) + padded.suffix(400))
        let observation = try await OpenMeteoProvider(baseURL: server.baseURL).fetch(at: here, now: now)
        #expect(observation.temperatureC == -1)
    }

    @Test func aRedirectToPlainHTTPIsNotFollowed() async throws {
        let elsewhere = try WeatherServer(scenario: .weather(.clear(20, at: now.addingTimeInterval(-800))))
        let server = try WeatherServer(
            scenario: .raw(
                status: 302, headers: ["Location": elsewhere.baseURL.absoluteString + "/v1/forecast?latitude=48.86"],
                body: ""))
        let error = await #expect(throws: WeatherError.self) {
            try await OpenMeteoProvider(baseURL: server.baseURL).fetch(at: here, now: now)
        }
        #expect(
            error?.description
                == "open-meteo sent an unreadable reply: it redirects to an address that is not https; not followed")
        #expect(server.hits == 1 && elsewhere.hits == 0, "the redirect was not followed")
    }
}

/// The helper itself, `chest-weather`, as chestd runs it: against a gzip bomb, 128 MiB that compress to about
/// 128 kB (under the limit as sent, so only counting the decoded bytes stops it), which it used to decode whole (a
/// 1 MB bomb made it 2.1 GB), and against an https server whose redirects lead to https or to plain http.
@Suite(.realProcesses, .tags(.process), .timeLimit(.minutes(3)))
struct WeatherHelperTests {
    struct Run {
        var reply: WeatherFetchReply?
        var output: String
        /// The helper's own peak RSS (ru_maxrss), in KiB; 0 when it was not measured.
        var peakKiB: Int
    }

    static let program = ChestHarness.products + "/chest-weather"

    /// `command`'s output gzipped by gzip(1) itself.
    static func gzip(_ command: String, in directory: String) throws -> Data {
        let path = directory + "/body.gz"
        let made = try Subprocess.run(
            "/bin/sh", ["-c", command + " | gzip -9 > \"$0\"", path], environment: ["PATH": "/usr/bin:/bin"])
        #expect(made.status == 0, "\(made.stderr)")
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// Forks and execs the program in argv[1] (standard input and output passed on) and writes its peak RSS, in KiB,
    /// to argv[2]. A fork, not the test's posix_spawn: a child spawned with CLONE_VM, as posix_spawn does, has the
    /// test process's own peak counted in its ru_maxrss at exec.
    static let measure = """
        import os, sys
        pid = os.fork()
        if pid == 0:
            os.execv(sys.argv[1], [sys.argv[1]])
        _, status, usage = os.wait4(pid, 0)
        with open(sys.argv[2], "w") as out:
            out.write(f"{usage.ru_maxrss}")
        sys.exit(os.waitstatus_to_exitcode(status))
        """

    /// Runs `launcher` (which runs the helper) on one request for `baseURL`, as chestd runs the helper: the request
    /// on standard input, the reply on standard output. `peak` is where the launcher leaves the peak RSS, if it does.
    static func helper(_ baseURL: String, in directory: String, launcher: [String], peak: String? = nil) throws -> Run {
        let request = WeatherFetchRequest(
            provider: "open-meteo", key: nil, baseURL: baseURL, coordinate: Coordinate(latitude: 48.86, longitude: 2.29)
        )
        let input = directory + "/request.json"
        let output = directory + "/reply-\(UUID().uuidString).json"
        try ChestJSON.line(request).write(to: URL(fileURLWithPath: input))
        let pid = try ProcessSpawner.spawn(
            launcher[0], arguments: Array(launcher.dropFirst()), environment: ["PATH": "/usr/bin:/bin"],
            fileActions: [
                .open(0, path: input, flags: O_RDONLY, permissions: 0),
                .open(1, path: output, flags: O_WRONLY | O_CREAT | O_TRUNC, permissions: 0o600),
                .open(2, path: output + ".err", flags: O_WRONLY | O_CREAT | O_TRUNC, permissions: 0o600),
                .closeFrom(3),
            ])
        _ = ProcessSpawner.wait(for: pid)
        let data = (try? Data(contentsOf: URL(fileURLWithPath: output))) ?? Data()
        let errors = (try? String(contentsOfFile: output + ".err", encoding: .utf8)) ?? ""
        return Run(
            reply: try? ChestJSON.decoder().decode(WeatherFetchReply.self, from: data),
            output: String(decoding: data, as: UTF8.self) + errors,
            peakKiB: peak.flatMap { Int((try? String(contentsOfFile: $0, encoding: .utf8)) ?? "") } ?? 0)
    }

    /// The helper with its peak RSS measured.
    static func measured(_ server: WeatherServer, in directory: String) throws -> Run {
        let peak = directory + "/peak-\(UUID().uuidString)"
        return try helper(
            server.baseURL.absoluteString, in: directory,
            launcher: ["/usr/bin/python3", "-c", measure, program, peak], peak: peak)
    }

    @Test func aGzipBombStopsAtTheLimitAndTheHelperStaysSmall() throws {
        let directory = try Directory.makeTemporary("chest-bomb")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let honest = try Self.gzip(
            "printf '%s' '\(WeatherReplyLimitTests.openMeteoBody(observed: 1_789_999_200))'", in: directory)
        let server = try WeatherServer(
            scenario: .bytes(status: 200, headers: ["Content-Encoding": "gzip"], body: honest))
        let read = try Self.measured(server, in: directory)
        guard case let .observed(observation)? = read.reply else {
            Issue.record("an honest compressed reply is read: \(read.output)")
            return
        }
        #expect(observation.temperatureC == -1 && observation.condition == .snowy)

        let bomb = try Self.gzip("head -c 134217728 /dev/zero", in: directory)
        #expect(bomb.count < 256 * 1024, "\(bomb.count) bytes as sent: under the limit")
        server.scenario = .bytes(status: 200, headers: ["Content-Encoding": "gzip"], body: bomb)
        let stopped = try Self.measured(server, in: directory)
        #expect(
            stopped.reply
                == .failed(
                    reason: "open-meteo sent an unreadable reply: it is larger than 256 kB (a reply is under 1 kB); "
                        + "not read", retryAfter: nil, offline: false), "\(stopped.output)")
        #expect(
            read.peakKiB > 0 && stopped.peakKiB > 0 && stopped.peakKiB < read.peakKiB + 16 * 1024,
            "peak RSS \(stopped.peakKiB) KiB on the bomb, \(read.peakKiB) KiB on an honest reply")
    }

    /// An https server on loopback (Python's, with the test CA's certificate) that redirects `/to-http/…` to the
    /// plain http base in argv[3], `/to-https/…` to its own `/final/…`, and answers `/final/…` with argv[4]; prints
    /// "port N", then each path asked.
    static let redirector = """
        import http.server, ssl, sys
        certificate, key, plain, body = sys.argv[1:5]
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                print(self.path, flush=True)
                path, _, query = self.path.partition("?")
                if path.startswith("/final/"):
                    data = body.encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    return
                if path.startswith("/to-http/"):
                    target = plain + path[len("/to-http"):]
                else:
                    target = f"https://127.0.0.1:{port}/final" + path[len("/to-https"):]
                self.send_response(302)
                self.send_header("Location", target + "?" + query)
                self.send_header("Content-Length", "0")
                self.end_headers()
            def log_message(self, *arguments):
                pass
        server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(certificate, key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
        port = server.server_address[1]
        print(f"port {port}", flush=True)
        server.serve_forever()
        """

    @Test func fromHTTPSARedirectIsFollowedToHTTPSAndNotToPlainHTTP() throws {
        let directory = try Directory.makeTemporary("chest-redirect")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let authority = try TestCertificateAuthority(in: URL(fileURLWithPath: directory))
        let plain = try WeatherServer(scenario: .weather(.snowy(-1, at: Date())))
        let log = directory + "/redirector"
        let redirector = try TestProcess(
            "/usr/bin/python3",
            [
                "-c", Self.redirector, authority.certificateFile, authority.keyFile, plain.baseURL.absoluteString,
                WeatherReplyLimitTests.openMeteoBody(observed: Int(Date().timeIntervalSince1970) / 900 * 900),
            ],
            wholeEnvironment: ["PATH": "/usr/bin:/bin"], stdout: log + ".out", stderr: log + ".err")
        defer {
            redirector.terminate()
        }
        let asked = { ((try? String(contentsOfFile: log + ".out", encoding: .utf8)) ?? "").split(separator: "\n") }
        try waitUntil("the https server's port", timeout: 30) {
            asked().contains { $0.hasPrefix("port ") }
                || !((try? String(contentsOfFile: log + ".err", encoding: .utf8)) ?? "").isEmpty
        }
        let port = try #require(asked().first { $0.hasPrefix("port ") }.map { $0.dropFirst(5) })
        // The helper trusts the test's CA in a mount namespace of its own, where the system's bundle is that CA.
        let trusting = [
            "/usr/bin/unshare", "--map-root-user", "--mount", "/bin/sh", "-c",
            "mount --bind \"$0\" /etc/ssl/certs/ca-certificates.crt && exec \"$1\"", authority.caFile, Self.program,
        ]
        let followed = try Self.helper("https://127.0.0.1:\(port)/to-https", in: directory, launcher: trusting)
        guard case let .observed(observation)? = followed.reply else {
            Issue.record("https to https is followed: \(followed.output) \(asked())")
            return
        }
        #expect(observation.temperatureC == -1)
        let refused = try Self.helper("https://127.0.0.1:\(port)/to-http", in: directory, launcher: trusting)
        #expect(
            refused.reply
                == .failed(
                    reason: "open-meteo sent an unreadable reply: it redirects to an address that is not https; "
                        + "not followed", retryAfter: nil, offline: false), "\(refused.output)")
        #expect(plain.hits == 0, "the plain http server was never asked")
        #expect(asked().filter { $0.hasPrefix("/to-http/v1/forecast?latitude=48.86") }.count == 1, "\(asked())")
    }
}
