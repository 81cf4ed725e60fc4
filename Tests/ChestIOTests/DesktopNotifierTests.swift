import Foundation
import Glibc
import Testing

@testable import ChestIO

/// A directory holding an executable `notify-send` shell script, to put on PATH.
private final class FakeNotifySend {
    let directory: String

    init(script: String) throws {
        directory = try Directory.makeTemporary("chest-notify-send", in: "/tmp")
        let path = directory + "/notify-send"
        try ("#!/bin/sh\n" + script + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }
}

@Suite struct DesktopNotifierTests {
    @Test func availableOnlyWithNotifySendAndASession() throws {
        let fake = try FakeNotifySend(script: "exit 0")
        let path = "/nonexistent:\(fake.directory)"
        #expect(DesktopNotifier.isAvailable(environment: ["PATH": path, "DISPLAY": ":0"]))
        #expect(DesktopNotifier.isAvailable(environment: ["PATH": path, "WAYLAND_DISPLAY": "wayland-0"]))
        #expect(
            DesktopNotifier.isAvailable(
                environment: ["PATH": path, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"]))
        #expect(!DesktopNotifier.isAvailable(environment: ["PATH": path]))
        #expect(!DesktopNotifier.isAvailable(environment: ["PATH": path, "DISPLAY": ""]))
        #expect(!DesktopNotifier.isAvailable(environment: ["PATH": "/nonexistent", "DISPLAY": ":0"]))
    }

    @Test func sendsTitlePageAndFirstLineAsArguments() async throws {
        let fake = try FakeNotifySend(script: #"for a in "$@"; do printf '%s\n' "$a"; done > "$OUT""#)
        let out = fake.directory + "/args"
        let notifier = DesktopNotifier(environment: ["PATH": fake.directory, "DISPLAY": ":0", "OUT": out])
        let outcome = await notifier.notifyUnlocked(
            title: "-Birthday $HOME", page: 2, text: "Under the old oak.\nDig at the root.")
        #expect(outcome == .exited(status: 0))
        #expect(
            try String(contentsOfFile: out, encoding: .utf8) == """
                --app-name=chest
                --icon=dialog-information
                --
                -Birthday $HOME
                page 2: Under the old oak.

                """)
    }

    @Test func hangingNotifySendIsKilled() async throws {
        let fake = try FakeNotifySend(script: "sleep 1000")
        let notifier = DesktopNotifier(
            environment: ["PATH": fake.directory + ":/usr/bin:/bin", "DISPLAY": ":0"],
            timeout: 0.3)
        let start = ContinuousClock.now
        let outcome = await notifier.notifyUnlocked(title: "t", page: 1, text: "")
        #expect(outcome == .timedOut, "\(outcome)")
        // Killed, not waited for (1000 s). A loaded machine can take half a minute to start and reap a process while
        // every other suite runs beside this one (37 s was seen at a load of 18), so the bound is far from both.
        #expect(ContinuousClock.now - start < .seconds(300))
    }

    @Test func unavailableNotifierDoesNotRunAnything() async {
        let notifier = DesktopNotifier(environment: ["PATH": "/nonexistent"])
        #expect(!notifier.isAvailable)
        guard case .failedToStart = await notifier.notifyUnlocked(title: "t", page: 1, text: "x") else {
            Issue.record("expected failedToStart")
            return
        }
    }
}
