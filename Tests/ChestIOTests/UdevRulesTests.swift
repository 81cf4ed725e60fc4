import Foundation
import Glibc
import Testing

/// One `KEY{attribute} op "value"` of a udev rule.
private struct Assignment: Equatable {
    var key: String
    var attribute: String?
    var op: String
    var value: String
}

/// What a key of udev.rules(7) allows: matching (==, !=), assigning (=, +=, -=, :=), an {attribute}.
private struct KeyKind {
    var matches: Bool
    var assigns: Bool
    var attribute: Bool
}

private let knownKeys: [String: KeyKind] = [
    "ACTION": KeyKind(matches: true, assigns: false, attribute: false),
    "DEVPATH": KeyKind(matches: true, assigns: false, attribute: false),
    "KERNEL": KeyKind(matches: true, assigns: false, attribute: false),
    "SUBSYSTEM": KeyKind(matches: true, assigns: false, attribute: false),
    "DRIVER": KeyKind(matches: true, assigns: false, attribute: false),
    "KERNELS": KeyKind(matches: true, assigns: false, attribute: false),
    "SUBSYSTEMS": KeyKind(matches: true, assigns: false, attribute: false),
    "DRIVERS": KeyKind(matches: true, assigns: false, attribute: false),
    "ATTRS": KeyKind(matches: true, assigns: false, attribute: true),
    "TAGS": KeyKind(matches: true, assigns: false, attribute: false),
    "TEST": KeyKind(matches: true, assigns: false, attribute: true),
    "PROGRAM": KeyKind(matches: true, assigns: false, attribute: false),
    "RESULT": KeyKind(matches: true, assigns: false, attribute: false),
    "CONST": KeyKind(matches: true, assigns: false, attribute: true),
    "ATTR": KeyKind(matches: true, assigns: true, attribute: true),
    "SYSCTL": KeyKind(matches: true, assigns: true, attribute: true),
    "ENV": KeyKind(matches: true, assigns: true, attribute: true),
    "TAG": KeyKind(matches: true, assigns: true, attribute: false),
    "NAME": KeyKind(matches: true, assigns: true, attribute: false),
    "SYMLINK": KeyKind(matches: true, assigns: true, attribute: false),
    "IMPORT": KeyKind(matches: true, assigns: true, attribute: true),
    "OWNER": KeyKind(matches: false, assigns: true, attribute: false),
    "GROUP": KeyKind(matches: false, assigns: true, attribute: false),
    "MODE": KeyKind(matches: false, assigns: true, attribute: false),
    "SECLABEL": KeyKind(matches: false, assigns: true, attribute: true),
    "OPTIONS": KeyKind(matches: false, assigns: true, attribute: false),
    "RUN": KeyKind(matches: false, assigns: true, attribute: true),
    "LABEL": KeyKind(matches: false, assigns: true, attribute: false),
    "GOTO": KeyKind(matches: false, assigns: true, attribute: false),
]

private let matchOperators: Set = ["==", "!="]
private let assignOperators: Set = ["=", "+=", "-=", ":="]

private struct RulesSyntaxError: Error, CustomStringConvertible {
    var line: Int
    var problem: String
    var description: String { "60-chest-gps.rules:\(line): \(problem)" }
}

/// Parses one rule line the way udev does: comma-separated assignments, double-quoted values, nothing after.
private func parseRule(_ text: Substring, line: Int) throws(RulesSyntaxError) -> [Assignment] {
    var rest = text[...]
    var assignments: [Assignment] = []
    func fail(_ problem: String) -> RulesSyntaxError { RulesSyntaxError(line: line, problem: problem) }

    while true {
        rest = rest.drop(while: { $0 == " " || $0 == "\t" })
        let key = String(rest.prefix(while: { $0.isUppercase || $0 == "_" }))
        guard !key.isEmpty else { throw fail("expected a key at \"\(rest.prefix(20))\"") }
        rest = rest.dropFirst(key.count)
        var attribute: String?
        if rest.first == "{" {
            guard let close = rest.firstIndex(of: "}") else { throw fail("unclosed { after \(key)") }
            attribute = String(rest[rest.index(after: rest.startIndex)..<close])
            rest = rest[rest.index(after: close)...]
        }
        rest = rest.drop(while: { $0 == " " })
        guard let op = ["==", "!=", "+=", "-=", ":=", "="].first(where: { rest.hasPrefix($0) }) else {
            throw fail("no operator after \(key)")
        }
        rest = rest.dropFirst(op.count).drop(while: { $0 == " " })
        guard rest.first == "\"" else { throw fail("value of \(key) is not double-quoted") }
        rest = rest.dropFirst()
        var value = ""
        var escaped = false
        var closed = false
        while let character = rest.first {
            rest = rest.dropFirst()
            if escaped {
                value.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
                value.append(character)
            } else if character == "\"" {
                closed = true
                break
            } else {
                value.append(character)
            }
        }
        guard closed else { throw fail("unterminated value of \(key)") }

        guard let kind = knownKeys[key] else { throw fail("unknown key \(key)") }
        if kind.attribute != (attribute != nil) {
            throw fail(kind.attribute ? "\(key) needs {attribute}" : "\(key) takes no {attribute}")
        }
        guard matchOperators.contains(op) ? kind.matches : kind.assigns else {
            throw fail("operator \(op) is not allowed for \(key)")
        }
        assignments.append(Assignment(key: key, attribute: attribute, op: op, value: value))

        rest = rest.drop(while: { $0 == " " || $0 == "\t" })
        if rest.isEmpty { return assignments }
        guard rest.first == "," else {
            throw fail("unexpected \"\(rest.prefix(20))\" after a value (udev allows no trailing comment)")
        }
        rest = rest.dropFirst()
    }
}

private func loadRules() throws -> (text: String, rules: [(line: Int, assignments: [Assignment])]) {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let text = try String(contentsOf: root.appendingPathComponent("udev/60-chest-gps.rules"), encoding: .utf8)
    var rules: [(Int, [Assignment])] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
        if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
        rules.append((index + 1, try parseRule(trimmed, line: index + 1)))
    }
    return (text, rules)
}

/// A device as udev sees it while processing an event: its own keys, and the parents that ATTRS walks.
struct UdevTestDevice: Sendable {
    var action = "add"
    var subsystem: String
    var kernel: String
    /// Nearest first: for a USB serial tty, the USB interface, then the USB device with the IDs.
    var parents: [[String: String]]

    static func usbSerial(_ kernel: String, vendor: String, product: String) -> UdevTestDevice {
        UdevTestDevice(
            subsystem: "tty", kernel: kernel,
            parents: [
                ["SUBSYSTEMS": "usb", "KERNELS": "1-1:1.0"],
                ["SUBSYSTEMS": "usb", "KERNELS": "1-1", "ATTRS{idVendor}": vendor, "ATTRS{idProduct}": product],
            ])
    }
}

/// What the rules did to a device.
private struct Result {
    var environment: [String: String] = [:]
    var symlinks: [String] = []
    var group: String?
    var mode: String?
    var tags: [String] = []
}

/// Shell glob match with udev's "a|b" alternatives.
private func globMatches(_ pattern: String, _ value: String) -> Bool {
    pattern.split(separator: "|", omittingEmptySubsequences: false).contains { fnmatch(String($0), value, 0) == 0 }
}

/// A small udev: matches ACTION, SUBSYSTEM, KERNEL, ENV{} on the device, SUBSYSTEMS/KERNELS/ATTRS{} on one
/// common parent, follows GOTO to LABEL, and applies ENV, SYMLINK, GROUP, MODE and TAG assignments.
private func apply(_ rules: [(line: Int, assignments: [Assignment])], to device: UdevTestDevice) -> Result {
    var result = Result()
    var index = 0
    func substitute(_ value: String) -> String {
        value.replacingOccurrences(of: "%k", with: device.kernel).replacingOccurrences(
            of: "$kernel", with: device.kernel)
    }
    while index < rules.count {
        let assignments = rules[index].assignments
        index += 1
        let matches = assignments.filter { matchOperators.contains($0.op) }
        let parentKeys: Set = ["SUBSYSTEMS", "KERNELS", "ATTRS", "DRIVERS"]
        let own = matches.filter { !parentKeys.contains($0.key) }
        let inherited = matches.filter { parentKeys.contains($0.key) }

        let ownHold = own.allSatisfy { match in
            let actual: String =
                switch match.key {
                case "ACTION": device.action
                case "SUBSYSTEM": device.subsystem
                case "KERNEL": device.kernel
                case "ENV": result.environment[match.attribute!] ?? ""
                default: ""
                }
            return globMatches(match.value, actual) == (match.op == "==")
        }
        let inheritedHold =
            inherited.isEmpty
            || device.parents.contains { parent in
                inherited.allSatisfy { match in
                    let name = match.attribute.map { "\(match.key){\($0)}" } ?? match.key
                    guard let actual = parent[name] else { return false }
                    return globMatches(match.value, actual) == (match.op == "==")
                }
            }
        guard ownHold && inheritedHold else { continue }

        for assignment in assignments where assignOperators.contains(assignment.op) {
            let value = substitute(assignment.value)
            switch (assignment.key, assignment.op) {
            case ("ENV", "+="):
                let old = result.environment[assignment.attribute!] ?? ""
                result.environment[assignment.attribute!] = old.isEmpty ? value : old + " " + value
            case ("ENV", _): result.environment[assignment.attribute!] = value
            case ("SYMLINK", "+="): result.symlinks.append(value)
            case ("SYMLINK", _): result.symlinks = [value]
            case ("GROUP", _): result.group = value
            case ("MODE", _): result.mode = value
            case ("TAG", _): result.tags.append(value)
            case ("GOTO", _):
                if let label = rules.firstIndex(where: {
                    $0.assignments.contains { $0.key == "LABEL" && $0.value == value }
                }) {
                    index = label
                } else {
                    index = rules.count
                }
            default: break
            }
        }
    }
    return result
}

@Suite struct UdevRulesTests {
    @Test func everyLineIsACommentABlankOrValidAssignments() throws {
        let (_, rules) = try loadRules()
        #expect(rules.count >= 10)
    }

    @Test func systemdWantsAreOnlyEverAppended() throws {
        let (_, rules) = try loadRules()
        let wants = rules.flatMap(\.assignments).filter {
            $0.key == "ENV" && ($0.attribute == "SYSTEMD_WANTS" || $0.attribute == "SYSTEMD_USER_WANTS")
        }
        #expect(wants.count == 2)
        for assignment in wants {
            #expect(assignment.op == "+=", "\(assignment)")
        }
    }

    @Test func everyGotoHasItsLabel() throws {
        let (_, rules) = try loadRules()
        let all = rules.flatMap(\.assignments)
        let labels = Set(all.filter { $0.key == "LABEL" }.map(\.value))
        for target in all.filter({ $0.key == "GOTO" }).map(\.value) {
            #expect(labels.contains(target), "GOTO=\"\(target)\" has no LABEL")
        }
    }

    @Test func headerSaysHowToAddADongle() throws {
        let (text, _) = try loadRules()
        #expect(text.hasPrefix("#"))
        #expect(text.contains("udevadm info -a -n /dev/ttyACM0"))
    }

    @Test(
        arguments: [
            ("u-blox 7", UdevTestDevice.usbSerial("ttyACM0", vendor: "1546", product: "01a7")),
            ("u-blox 5", UdevTestDevice.usbSerial("ttyACM1", vendor: "1546", product: "01a5")),
            ("u-blox 9", UdevTestDevice.usbSerial("ttyACM0", vendor: "1546", product: "01a9")),
            ("BU-353, PL2303", UdevTestDevice.usbSerial("ttyUSB0", vendor: "067b", product: "2303")),
            ("PS-360, SiRF", UdevTestDevice.usbSerial("ttyUSB0", vendor: "067b", product: "aaa0")),
            ("MediaTek", UdevTestDevice.usbSerial("ttyACM0", vendor: "0e8d", product: "3329")),
            ("CP210x", UdevTestDevice.usbSerial("ttyUSB2", vendor: "10c4", product: "ea60")),
            ("CP210x ea71", UdevTestDevice.usbSerial("ttyUSB0", vendor: "10c4", product: "ea71")),
            ("CH340", UdevTestDevice.usbSerial("ttyUSB1", vendor: "1a86", product: "7523")),
            ("Garmin", UdevTestDevice.usbSerial("ttyUSB0", vendor: "091e", product: "0003")),
        ] as [(String, UdevTestDevice)])
    func knownDongleGetsNameGroupAndServices(name: String, device: UdevTestDevice) throws {
        let (_, rules) = try loadRules()
        let result = apply(rules, to: device)
        #expect(result.symlinks == ["chest-gps"], "\(name)")
        #expect(result.group == "dialout", "\(name)")
        #expect(result.mode == "0660", "\(name)")
        #expect(result.tags == ["systemd"], "\(name)")
        #expect(result.environment["SYSTEMD_WANTS"] == "gpsdctl@\(device.kernel).service", "\(name)")
        #expect(result.environment["SYSTEMD_USER_WANTS"] == "chestd.service", "\(name)")
    }

    @Test(
        arguments: [
            (
                "Logitech receiver, 046d:c52b",
                UdevTestDevice(
                    subsystem: "input", kernel: "event3",
                    parents: [
                        ["SUBSYSTEMS": "usb", "ATTRS{idVendor}": "046d", "ATTRS{idProduct}": "c52b"]
                    ])
            ),
            (
                "Logitech receiver as hidraw",
                UdevTestDevice(
                    subsystem: "hidraw", kernel: "hidraw0",
                    parents: [
                        ["SUBSYSTEMS": "usb", "ATTRS{idVendor}": "046d", "ATTRS{idProduct}": "c52b"]
                    ])
            ),
            ("FTDI cable", UdevTestDevice.usbSerial("ttyUSB0", vendor: "0403", product: "6001")),
            ("another u-blox product", UdevTestDevice.usbSerial("ttyACM0", vendor: "1546", product: "0502")),
            (
                "the u-blox USB device itself",
                UdevTestDevice(
                    subsystem: "usb", kernel: "1-1",
                    parents: [
                        ["SUBSYSTEMS": "usb", "ATTRS{idVendor}": "1546", "ATTRS{idProduct}": "01a7"]
                    ])
            ),
            (
                "a u-blox on a non-USB-serial tty name",
                UdevTestDevice(
                    subsystem: "tty", kernel: "ttyS0",
                    parents: [
                        ["SUBSYSTEMS": "usb", "ATTRS{idVendor}": "1546", "ATTRS{idProduct}": "01a7"]
                    ])
            ),
            (
                "u-blox unplugged",
                UdevTestDevice(
                    action: "remove", subsystem: "tty", kernel: "ttyACM0",
                    parents: UdevTestDevice.usbSerial("ttyACM0", vendor: "1546", product: "01a7").parents)
            ),
        ] as [(String, UdevTestDevice)])
    func otherDevicesAreLeftAlone(name: String, device: UdevTestDevice) throws {
        let (_, rules) = try loadRules()
        let result = apply(rules, to: device)
        #expect(result.symlinks.isEmpty, "\(name)")
        #expect(result.group == nil && result.mode == nil, "\(name)")
        #expect(result.tags.isEmpty, "\(name)")
        #expect(result.environment["SYSTEMD_WANTS"] == nil, "\(name)")
        #expect(result.environment["SYSTEMD_USER_WANTS"] == nil, "\(name)")
    }

    @Test func parserRejectsWhatUdevRejects() {
        let bad = [
            #"ATTRS{idVendor}=="1546", ENV{CHEST_GPS}="1"  # u-blox"#,
            #"GROUP=="dialout""#,
            #"SUBSYSTEM="tty""#,
            #"MODEX="0660""#,
            #"ATTRS=="1546""#,
            #"KERNEL=="tty*" GOTO="end""#,
            #"SYMLINK+=chest-gps"#,
            #"ENV{X}=>"1""#,
        ]
        for line in bad {
            #expect(throws: RulesSyntaxError.self, "\(line)") { try parseRule(line[...], line: 1) }
        }
        #expect(throws: Never.self) {
            try parseRule(#"SUBSYSTEMS=="usb", ATTRS{idVendor}=="1546", ENV{CHEST_GPS}="1""#[...], line: 1)
        }
    }
}
