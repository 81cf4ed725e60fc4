import struct FoundationEssentials.Date

/// What chestd saw when a page opened (docs/FORMAT.md "Unlock receipts"): recorded by the engine when it
/// opens the page, signed later with the reader's identity into an `UnlockReceipt`.
package struct UnlockEvidence: Hashable, Sendable, Codable {
    /// One confirming fix.
    package struct ConfirmingFix: Hashable, Sendable, Codable {
        package var time: Date?
        package var latitude: Double?
        package var longitude: Double?
        package var altitudeMSL: Double?
        package var eph: Double?
        package var epv: Double?
        package var mode: Int
        package var satellitesUsed: Int?

        package init(_ fix: Fix) {
            time = fix.time
            latitude = fix.position?.latitude
            longitude = fix.position?.longitude
            altitudeMSL = fix.altitude3D
            eph = fix.eph
            epv = fix.epv
            mode = fix.mode.rawValue
            satellitesUsed = fix.satellitesUsed
        }
    }

    /// The kinds of lock of the set that opened the page.
    package var locks: [LockKind]
    /// The last fixes of consecutive epochs before the page opened (up to three), when a location or
    /// altitude lock took part; for a sealed place whose key came late, the three that reached it.
    package var fixes: [ConfirmingFix]
    /// When the place was reached (its third confirming fix), when a location lock took part: before the page
    /// opened when the place's key came late (docs/DESIGN.md "Late keys"). Absent before chest knew late keys.
    package var reachedAt: Date?
    package var source: FixSource?
    package var trust: FixTrust
    /// GPS time, while the clock guard had fresh evidence of it.
    package var gpsTime: Date?
    package var systemTime: Date
    /// "system" or "gps": the clock time locks followed.
    package var clock: String
    package var chestVersion: String

    package init(
        locks: [LockKind], fixes: [ConfirmingFix], source: FixSource?, trust: FixTrust, gpsTime: Date?,
        systemTime: Date, clock: String, chestVersion: String = ChestVersion.string
    ) {
        self.locks = locks
        self.fixes = fixes
        self.source = source
        self.trust = trust
        self.gpsTime = gpsTime
        self.systemTime = systemTime
        self.clock = clock
        self.chestVersion = chestVersion
    }
}

extension Engine {
    /// The evidence for a page opened now by a set of these locks.
    /// `reached` are the fixes that reached a place whose key came late, with their trust as they arrived and the
    /// last receiver gpsd named: gpsd may have gone, or a later fix raised a suspicion, before the key came.
    /// Otherwise the latest fixes are the evidence, with the trust of now.
    func evidence(locks: [LockKind], reached: [FixHistory.Entry]?, reachedAt: Date?, now: Now) -> UnlockEvidence {
        let usesFixes = locks.contains(.location) || locks.contains(.altitude)
        let fixes = usesFixes ? (reached ?? seal.history.lastRun(Self.confirmations)).map(\.fix) : []
        let findings = reached.map { $0.reduce(into: TrustAssessor.Findings()) { $0.formUnion($1.findings) } }
        var evidence = UnlockEvidence(
            locks: locks, fixes: fixes.map(UnlockEvidence.ConfirmingFix.init),
            source: reached == nil ? trust.source : trust.source ?? trust.lastSource,
            trust: findings.map(TrustAssessor.trust) ?? trust.trust,
            gpsTime: clock.gpsTime(now), systemTime: now.wall, clock: clock.decision(now).clock)
        evidence.reachedAt = reachedAt
        return evidence
    }
}
