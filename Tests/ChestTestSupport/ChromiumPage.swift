import ChestIO
import Foundation
import Glibc

/// One page in headless Chromium that a test drives as a viewer would: Chromium's DevTools protocol over
/// `--remote-debugging-pipe` (JSON messages ended by NUL, the test writing to the browser's descriptor 3 and reading
/// its descriptor 4), so the test can press keys and measure what the page laid out with a script of its own, not
/// only read what the page's own script says.
package final class ChromiumPage {
    private let pid: pid_t
    private let toBrowser: Int32
    private let fromBrowser: Int32
    private let profile: String
    private var session = ""
    private var next = 0
    private var buffer = Data()

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Opens `url` in a window of `width`×`height` CSS pixels for the page (the browser's own room added by
    /// `emulating` the size), light or dark, and waits until its `load` fired.
    package init(_ url: String, width: Int, height: Int, dark: Bool = false) throws {
        profile = try Directory.makeTemporary("chest-chromium", in: "/tmp")
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { throw Failure(description: "pipe: \(errno)") }
        let log = profile + "/stderr"
        do throws(Errno) {
            pid = try ProcessSpawner.spawn(
                "/usr/bin/chromium",
                arguments: [
                    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
                    "--user-data-dir=" + profile, "--remote-debugging-pipe", "--window-size=\(width),\(height)",
                    Chromium.colourScheme(dark: dark), "about:blank",
                ],
                environment: ["PATH": "/usr/bin:/bin", "HOME": profile],
                fileActions: [
                    .open(0, path: "/dev/null", flags: O_RDONLY, permissions: 0),
                    .open(1, path: "/dev/null", flags: O_WRONLY, permissions: 0),
                    .open(2, path: log, flags: O_WRONLY | O_CREAT | O_APPEND, permissions: 0o600),
                    .duplicate(toChild[0], as: 3), .duplicate(fromChild[1], as: 4), .closeFrom(5),
                ], newProcessGroup: true)
        } catch {
            throw Failure(description: "posix_spawn chromium: \(error)")
        }
        close(toChild[0])
        close(fromChild[1])
        toBrowser = toChild[1]
        fromBrowser = fromChild[0]
        let targets = try call("Target.getTargets", [:], inSession: false)
        let infos = (targets["targetInfos"]?.array) ?? []
        guard let page = infos.first(where: { $0["type"]?.string == "page" })?["targetId"]?.string else {
            throw Failure(description: "no page target: \(targets)")
        }
        let attached = try call(
            "Target.attachToTarget", ["targetId": .string(page), "flatten": true], inSession: false)
        session = attached["sessionId"]?.string ?? ""
        // The page gets exactly width×height, whatever the window keeps for itself.
        try call(
            "Emulation.setDeviceMetricsOverride",
            ["width": .integer(width), "height": .integer(height), "deviceScaleFactor": 1, "mobile": false])
        try call("Page.enable")
        try call("Page.navigate", ["url": .string(url)])
        try waitFor("the page's load", timeout: 60) {
            try self.evaluate("document.readyState")?.string == "complete"
        }
    }

    /// The pipe closed, Chromium quits by itself; whatever of its processes is left after 5 s is killed, its whole
    /// process group (renderers, zygote), so no browser outlives the test.
    deinit {
        close(toBrowser)
        close(fromBrowser)
        // WNOWAIT leaves the browser a zombie until the group is killed: a reaped leader's group id may be reused
        // by another test's child, which the kill would then reach.
        _ = holdsWithin(5, every: 0.05) {
            var info = siginfo_t()
            return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0
                && info._sifields._sigchld.si_pid == pid
        }
        kill(-pid, SIGKILL)
        _ = ProcessSpawner.wait(for: pid)
        try? FileManager.default.removeItem(atPath: profile)
    }

    /// The value of a JavaScript expression in the page (a promise is awaited), as JSON gives it back.
    package func evaluate(_ expression: String) throws -> JSON? {
        let result = try call(
            "Runtime.evaluate", ["expression": .string(expression), "returnByValue": true, "awaitPromise": true])
        if let exception = result["exceptionDetails"] {
            throw Failure(description: "the script failed: \(exception)")
        }
        return result["result"]?["value"]
    }

    /// Presses and lets go of a key, as a keyboard does: " " (space) or "ArrowRight".
    package func press(_ key: String) throws {
        let (code, number) =
            switch key {
            case " ": ("Space", 32)
            case "ArrowRight": ("ArrowRight", 39)
            case "ArrowLeft": ("ArrowLeft", 37)
            default: (key, 0)
            }
        for type in ["keyDown", "keyUp"] {
            var parameters: JSON = [
                "type": .string(type), "key": .string(key), "code": .string(code),
                "windowsVirtualKeyCode": .integer(number), "nativeVirtualKeyCode": .integer(number),
            ]
            if key == " ", type == "keyDown" { parameters["text"] = " " }
            try call("Input.dispatchKeyEvent", parameters)
        }
    }

    /// Waits until `condition` holds, checking every 0.1 s.
    package func waitFor(_ what: String, timeout: Double = 30, _ condition: () throws -> Bool) throws {
        guard try holdsWithin(timeout, every: 0.1, condition) else {
            throw Failure(description: "timed out after \(timeout) s waiting for \(what)")
        }
    }

    @discardableResult
    private func call(_ method: String, _ parameters: JSON = [:], inSession: Bool = true) throws -> JSON {
        next += 1
        let id = next
        var message: JSON = ["id": .integer(id), "method": .string(method), "params": parameters]
        if inSession { message["sessionId"] = .string(session) }
        var bytes = try message.data
        bytes.append(0)
        try bytes.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let wrote = write(toBrowser, raw.baseAddress! + sent, raw.count - sent)
                guard wrote > 0 else { throw Failure(description: "writing to chromium: \(errno)") }
                sent += wrote
            }
        }
        let deadline = Date().addingTimeInterval(60)
        while true {
            while let end = buffer.firstIndex(of: 0) {
                let line = buffer[buffer.startIndex..<end]
                buffer = Data(buffer[(end + 1)...])
                let reply = try JSON(Data(line))
                guard reply["id"]?.int == id
                else { continue }
                if let error = reply["error"] { throw Failure(description: "\(method): \(error)") }
                return reply["result"] ?? [:]
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw Failure(description: "chromium did not answer \(method)") }
            var poller = pollfd(fd: fromBrowser, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(min(left, 1) * 1000)) >= 0 || errno == EINTR else {
                throw Failure(description: "poll: \(errno)")
            }
            guard poller.revents != 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = read(fromBrowser, &chunk, chunk.count)
            guard count > 0 else {
                let log = (try? String(contentsOfFile: profile + "/stderr", encoding: .utf8)) ?? ""
                throw Failure(description: "chromium closed its pipe during \(method): \(log.suffix(800))")
            }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }
}
