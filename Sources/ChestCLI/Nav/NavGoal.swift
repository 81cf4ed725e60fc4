import ChestCore
import FoundationEssentials

/// One thing a message still waits for, as `chest nav` shows it: a place to walk to, a sealed place, a height, a
/// page that must open first, a time, the weather, a PIN. Made from chestd's explanation of the lock and where
/// the reader is, with no I/O, so it is tested without chestd (NavStateTests).
struct NavGoal: Equatable {
    enum Kind: String, CaseIterable {
        case place, sealed, altitude, time, chain, weather, temperature, pin, release, answer
    }

    /// "ID/page/set/kind": the same from one refresh to the next, so the selection follows the goal.
    var key: String
    var kind: Kind
    var messageID: MessageID
    var title: String
    var page: Int
    var set: LockSetName
    /// A visible place's name when the organiser gave one, else the message's title and page.
    var name: String
    /// What to do or wait for: "150 m · 045° NE · arrive in 1:47", "climb 25 m (at 55 m, needs 80..95 m)".
    var detail: String
    /// A visible place: metres to its centre and the bearing toward it from the last known position.
    var metres: Double?
    var bearing: Double?
    /// Seconds to the place's edge at the current speed.
    var arrival: Double?
    /// Seconds until a time lock opens.
    var due: Double?
    /// The distance is from a position that is no longer current.
    var stale = false
    /// The page's hints in a line (NavGoal+Hints.swift), nil when it has none.
    var hints: String?
    /// The page's question, on one line, for a goal other than its answer (whose need says it): a riddle the page's
    /// other locks open is read before the page is (docs/FORMAT.md "Questions, answer locks and points").
    var question: String?

    /// The title as shown, and what keeps it apart from the other pages: " p3", " p3 set B".
    var pageSuffix: String { " p\(page)\(set == .b ? " set B" : "")" }
    /// Its set still waits for another page to open (an `after` lock that does not hold): not a goal the reader can
    /// reach yet, so shown after those that are (docs/QUEST.md "Order").
    var waiting = false

    /// Where the goal belongs: "Lisbon quest p1" (with the set when a page has two).
    var owner: String { TerminalText.escaped(title) + pageSuffix }
}

/// What nav knows of the reader when it makes goals: the position (current or last known), altitude, speed and
/// the time.
struct NavContext {
    var position: Coordinate?
    /// False when the position is the last known one, not a current fix.
    var positionIsCurrent = false
    /// Metres above sea level, from a current 3D fix.
    var altitude: Double?
    /// Metres per second, when the reader moves.
    var speed: Double?
    var now: Date
    var timeZone: Zone = .current
}

extension NavGoal {
    /// Walking slower than this is standing still: no arrival time.
    static let movingSpeed = 0.5

    /// The goals of one message: every lock of every page not yet open that does not hold, in both sets.
    static func goals(of report: ReadReport, _ context: NavContext) -> [NavGoal] {
        guard !report.sentByYou else { return [] }
        var goals: [NavGoal] = []
        for page in report.pages where !page.open {
            for set in page.sets {
                for lock in set.locks where !lock.holds {
                    let key = "\(report.id)/\(page.number)\(set.set.rawValue)/\(lock.type.rawValue)"
                    var goal = NavGoal(
                        key: key, kind: .pin, messageID: report.id, title: report.title, page: page.number,
                        set: set.set, name: "\(TerminalText.escaped(report.title)) p\(page.number)", detail: "")
                    goal.waiting = lock.type != .after && set.locks.contains { $0.type == .after && !$0.holds }
                    goal.describe(lock, context)
                    goal.hints = hintLine(page, id: report.id, context)
                    if lock.type == .answer {
                        goal.detail = Self.answer(page.question, lock.reason, id: report.id, context)
                    } else if let question = page.question {
                        goal.question =
                            "\u{201C}\(TerminalText.escaped(question.split(whereSeparator: \.isNewline).joined(separator: " ")))\u{201D}"
                    }
                    goals.append(goal)
                }
            }
        }
        return goals
    }

    /// Fills kind, detail and direction from the lock's target and chestd's reason.
    private mutating func describe(_ lock: LockReport, _ context: NavContext) {
        let target = lock.target
        let reason = lock.reason.map { $0.text(timeZone: context.timeZone, now: context.now) } ?? ""
        switch lock.type {
        case .location:
            if let center = target?.center {
                kind = .place
                if let label = target?.label, !label.isEmpty { name = TerminalText.escaped(label) }
                place(center, radius: target?.radius ?? 0, reason: lock.reason, context)
            } else {
                kind = .sealed
                detail = Self.sealed(lock.reason, context)
            }
        case .altitude:
            kind = .altitude
            detail = Self.altitude(target?.altitude, lock.reason, context)
        case .time:
            kind = .time
            if let opensAt = target?.opensAt, case .opensAt? = lock.reason {
                due = opensAt.timeIntervalSince(context.now)
                detail =
                    "opens in \(Self.countdown(opensAt.timeIntervalSince(context.now))), at "
                    + LockReason.clock(opensAt, context.timeZone)
            } else {
                detail = reason
            }
        case .after:
            kind = .chain
            detail = reason
        case .weather:
            // chestd's verdict, which knows whether its reading is recent and near enough to count.
            kind = .weather
            var now = reason
            if case let .weather(current, _)? = lock.reason { now = current?.rawValue ?? "unknown" }
            detail = "wants \(target?.weather?.rawValue ?? "?"), now \(now)"
        case .temperature:
            kind = .temperature
            var now = reason
            if case let .temperature(current, _)? = lock.reason { now = String(printf: "%.1f °C", current) }
            detail = "wants \(target?.temperature.map { "\($0) °C" } ?? "?"), now \(now)"
        case .pin:
            kind = .pin
            detail = lock.reason == .needsPIN ? "needs the PIN: chest pin \(messageID.short) PIN" : reason
        case .release:
            kind = .release
            detail = reason
        case .answer:
            kind = .answer
            detail = reason
        }
    }

    /// An answer lock: the question, and how to answer it (or chestd's word while answers wait).
    static func answer(_ question: String?, _ reason: LockReason?, id: MessageID, _ context: NavContext) -> String {
        let how =
            reason == .needsAnswer
            ? "chest answer \(id.short) TEXT"
            : reason?.text(timeZone: context.timeZone, now: context.now) ?? ""
        guard let question else { return "needs the answer: " + how }
        return
            "\u{201C}\(TerminalText.escaped(question.split(whereSeparator: \.isNewline).joined(separator: " ")))\u{201D}: "
            + how
    }

    /// A visible place: distance and bearing from the position, arrival at the current speed, and chestd's word
    /// when the distance alone does not say it (inside, confirming, too inaccurate).
    private mutating func place(_ center: Coordinate, radius: Double, reason: LockReason?, _ context: NavContext) {
        guard let position = context.position else {
            detail = reason?.text(timeZone: context.timeZone, now: context.now) ?? LockReason.noFix(gpsConnected: true)
            return
        }
        let metres = position.distance(to: center)
        let bearing = position.bearing(to: center)
        self.metres = metres
        self.bearing = bearing
        stale = !context.positionIsCurrent
        var parts = [Wording.distance(metres), String(printf: "%03.0f° ", bearing) + Self.compass(bearing)]
        if metres <= radius {
            parts = ["here (within \(Int(radius.rounded())) m)"]
        } else if let speed = context.speed, speed >= Self.movingSpeed, !stale {
            arrival = (metres - radius) / speed
            parts.append("arrive in \(Self.countdown(arrival!))")
        }
        switch reason {
        case .away?, nil: break
        case .gpsNotConnected?, .needsFix?, .staleFix?: parts.append("last known")
        case let reason?: parts.append(reason.text(timeZone: context.timeZone, now: context.now))
        }
        detail = parts.joined(separator: " · ")
    }

    /// A sealed place is what it honestly is: no direction, only the cells tried so far.
    private static func sealed(_ reason: LockReason?, _ context: NavContext) -> String {
        switch reason {
        case let .goThere(tried)?:
            "sealed place, no direction: "
                + (tried == 0 ? "no cell tried yet" : "\(tried) cell\(tried == 1 ? "" : "s") tried")
        case let .sealedConfirming(count, total)?: "sealed place: this is it, \(count) of \(total) confirming fixes"
        case let reason?: "sealed place: " + reason.text(timeZone: context.timeZone, now: context.now)
        case nil: "sealed place"
        }
    }

    /// "climb 25 m (at 55 m, needs 80..95 m)", "descend 3 m …", "at 85 m, needs 80..95 m: 1 of 3 confirming fixes".
    private static func altitude(_ bounds: Bounds?, _ reason: LockReason?, _ context: NavContext) -> String {
        var current = context.altitude
        if case let .altitude(reported, _)? = reason { current = reported }
        let why = reason?.text(timeZone: context.timeZone, now: context.now) ?? ""
        guard let bounds else { return why }
        guard let current else { return "needs \(bounds) m; \(why)" }
        let at = "at \(Int(current.rounded())) m, needs \(bounds) m"
        if current < bounds.min { return "climb \(Int((bounds.min - current).rounded(.up))) m (\(at))" }
        if current > bounds.max { return "descend \(Int((current - bounds.max).rounded(.up))) m (\(at))" }
        if case .altitude? = reason { return at }
        return "\(at): \(why)"
    }

    /// "0:04:10", "27:03:00", "3 days": a time left that visibly counts down.
    static func countdown(_ seconds: Double) -> String {
        let whole = Int(max(0, seconds).rounded(.up))
        if whole >= 48 * 3600 { return "\(whole / 86400) days" }
        return String(printf: "%d:%02d:%02d", whole / 3600, whole % 3600 / 60, whole % 60)
    }

    static let compassPoints = [
        "N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW",
    ]

    /// The 16-point compass name of a bearing: "NNE".
    static func compass(_ bearing: Double) -> String {
        let normalised = (bearing.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        return compassPoints[Int((normalised + 11.25) / 22.5) % 16]
    }

    /// Open goals (their page waits for no other) before the others; among them places first, nearest first; then
    /// the other goals by kind, sooner times first, then by message and page.
    static func ordered(_ a: NavGoal, _ b: NavGoal) -> Bool {
        if a.waiting != b.waiting { return !a.waiting }
        let kinds = Kind.allCases
        let rankA = kinds.firstIndex(of: a.kind)!
        let rankB = kinds.firstIndex(of: b.kind)!
        if rankA != rankB { return rankA < rankB }
        let nearA = a.metres ?? a.due ?? .infinity
        let nearB = b.metres ?? b.due ?? .infinity
        if nearA != nearB { return nearA < nearB }
        return (a.title, a.page, a.set.rawValue) < (b.title, b.page, b.set.rawValue)
    }
}
