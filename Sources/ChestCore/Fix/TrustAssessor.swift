import struct FoundationEssentials.Date

/// Gives every fix a trust level (docs/SECURITY.md "Hardware trust and time"). Pure and cheap: a few
/// comparisons per fix, no allocation; the reasons are spelled out only when asked for.
package struct TrustAssessor: Sendable {
    /// One reason a fix is trusted less than `hardware`.
    package struct Findings: OptionSet, Hashable, Sendable {
        package let rawValue: UInt16
        package init(rawValue: UInt16) { self.rawValue = rawValue }

        package static let noSource = Findings(rawValue: 1 << 0)
        package static let unknownSource = Findings(rawValue: 1 << 1)
        package static let pty = Findings(rawValue: 1 << 2)
        package static let network = Findings(rawValue: 1 << 3)
        package static let gpsdSimulated = Findings(rawValue: 1 << 4)
        package static let jump = Findings(rawValue: 1 << 5)
        package static let teleport = Findings(rawValue: 1 << 6)
        package static let timeBackwards = Findings(rawValue: 1 << 7)
        package static let uniformSky = Findings(rawValue: 1 << 8)
        package static let frozenSky = Findings(rawValue: 1 << 9)
        package static let constellationLoss = Findings(rawValue: 1 << 10)

        static let simulated: Findings = [.pty, .network, .gpsdSimulated]
        static let suspect: Findings = [.jump, .teleport, .timeBackwards, .uniformSky, .frozenSky, .constellationLoss]

        /// Each finding in words, most serious first.
        static let words: [(Findings, String)] = [
            (.teleport, "the position jumped away and came back"),
            (.jump, "the position jumped faster than anyone travels"),
            (.timeBackwards, "GPS time went backwards"),
            (.uniformSky, "every satellite has the same signal strength"),
            (.frozenSky, "the satellites' signal strengths have not changed for many reports"),
            (.constellationLoss, "a multi-constellation receiver suddenly uses GPS alone"),
            (.gpsdSimulated, "gpsd reports a simulated fix"),
            (.pty, "the receiver is a pseudo-terminal (gpsfake or a program writing NMEA)"),
            (.network, "the fixes come over the network"),
            (.unknownSource, "chestd cannot tell what the receiver is"),
            (.noSource, "gpsd has not said which device sends the fixes"),
        ]
    }

    /// Faster than this between consecutive epochs is a jump: faster than cars and trains.
    package static let maximumSpeed = 100.0
    /// Moves shorter than this are receiver noise, however short the interval (10 Hz receivers).
    package static let minimumJump = 100.0
    /// Coming back within this distance of where a jump started is a teleport and back.
    package static let returnDistance = 100.0
    /// An identical sky this many SKY reports in a row is frozen; real signal strengths flicker every second.
    package static let frozenReports = 30
    /// A suspicion lasts this long after the last fix that raised it, in seconds of the monotonic clock.
    package static let suspicionMemory = 60.0

    /// The findings about the latest fix.
    package private(set) var findings: Findings = .noSource
    /// Where the fixes come from, once gpsd said.
    package private(set) var source: FixSource?
    /// The last receiver gpsd named, kept after it went: where the fixes kept from before came from.
    package private(set) var lastSource: FixSource?
    private var suspicions: Findings = []
    private var suspectUntil = -Double.infinity
    /// The last positioned epoch: its GPS time when the report had one, when it was received (monotonic), where.
    private var lastEpoch: (time: Double?, receivedAt: Double, position: Coordinate?)?
    private var jumpOrigin: (position: Coordinate, time: Double?, receivedAt: Double)?
    private var skySerial: Int?
    private var skyDigest: Int?
    private var identicalSkies = 0
    private var multiConstellationUntil = -Double.infinity

    package init() {}

    /// The level of the latest fix.
    package var level: FixTrust.Level { Self.level(findings) }

    /// The level and reasons of the latest fix.
    package var trust: FixTrust { Self.trust(findings) }

    /// The level and reasons these findings give.
    static func trust(_ findings: Findings) -> FixTrust {
        FixTrust(level: level(findings), reasons: Findings.words.filter { findings.contains($0.0) }.map(\.1))
    }

    static func level(_ findings: Findings) -> FixTrust.Level {
        if !findings.isDisjoint(with: .suspect) { return .suspect }
        if !findings.isDisjoint(with: .simulated) { return .simulated }
        if !findings.isEmpty { return .unverified }
        return .hardware
    }

    /// gpsd named the device feeding it (or `nil`: it went away).
    package mutating func receiver(_ source: FixSource?) {
        self.source = source
        if let source { lastSource = source }
        findings = findings.subtracting([.noSource, .unknownSource, .pty, .network]).union(sourceFindings)
    }

    private var sourceFindings: Findings {
        switch source?.kind {
        case nil: .noSource
        case .usb: []
        case .pty: .pty
        case .network: .network
        case .unknown: .unknownSource
        }
    }

    /// Judges one fix and returns whether its findings changed.
    @discardableResult
    package mutating func assess(_ fix: Fix) -> Bool {
        var found = sourceFindings
        if fix.status == 8 { found.insert(.gpsdSimulated) }
        if let sky = fix.sky, sky.serial != skySerial {
            skySerial = sky.serial
            suspicions.formUnion(judge(sky, at: fix.receivedAt))
        }
        // A report without `time` is judged too, by when it was received: leaving the field out must not skip
        // the jump check (docs/SECURITY.md "Hardware trust and time").
        let time = fix.time?.timeIntervalSince1970
        if fix.mode.hasPosition, time == nil || time != lastEpoch?.time {
            suspicions.formUnion(judgeMove(to: fix.position, at: time, receivedAt: fix.receivedAt))
        }
        if !suspicions.isEmpty {
            if suspicions != suspicionsBefore { suspectUntil = fix.receivedAt + Self.suspicionMemory }
            if fix.receivedAt > suspectUntil { suspicions = [] }
        }
        suspicionsBefore = suspicions
        found.formUnion(suspicions)
        defer { findings = found }
        return found != findings
    }

    private var suspicionsBefore: Findings = []

    private mutating func judge(_ sky: SkySummary, at receivedAt: Double) -> Findings {
        var found: Findings = []
        if sky.usedWithSignal >= 5 && sky.signalSpread < 0.25 { found.insert(.uniformSky) }
        identicalSkies = sky.usedWithSignal >= 4 && sky.signalDigest == skyDigest ? identicalSkies + 1 : 0
        skyDigest = sky.signalDigest
        if identicalSkies >= Self.frozenReports { found.insert(.frozenSky) }
        if sky.isMultiConstellation {
            multiConstellationUntil = receivedAt + Self.suspicionMemory
        } else if sky.isGPSOnly && receivedAt <= multiConstellationUntil {
            found.insert(.constellationLoss)
        }
        return found
    }

    private mutating func judgeMove(to position: Coordinate?, at time: Double?, receivedAt: Double) -> Findings {
        defer { lastEpoch = (time ?? lastEpoch?.time, receivedAt, position ?? lastEpoch?.position) }
        guard let last = lastEpoch else { return [] }
        if let time, let lastTime = last.time, time < lastTime - 0.5 { return .timeBackwards }
        // GPS time between two reports that have it; else the time between receiving them, at least a millisecond.
        func elapsed(since gps: Double?, _ received: Double) -> Double {
            if let time, let gps { return time - gps }
            return max(receivedAt - received, 0.001)
        }
        let interval = elapsed(since: last.time, last.receivedAt)
        guard let position, let from = last.position, interval > 0 else { return [] }
        let distance = position.distance(to: from)
        guard distance > Self.minimumJump, distance / interval > Self.maximumSpeed else { return [] }
        defer { jumpOrigin = (from, time, receivedAt) }
        if let origin = jumpOrigin, elapsed(since: origin.time, origin.receivedAt) < Self.suspicionMemory,
            position.distance(to: origin.position) < Self.returnDistance
        {
            return [.jump, .teleport]
        }
        return .jump
    }
}
