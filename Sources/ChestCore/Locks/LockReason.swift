import FoundationEssentials

/// Why a lock does not hold yet: what `chest read` shows beside it.
package enum LockReason: Hashable, Sendable, Codable {
    case opensAt(Date)
    /// The system clock is ahead of GPS time, so the lock waits for GPS time to reach the instant.
    case clockAheadOfGPS(opensAt: Date, offsetSeconds: Double)
    case gpsNotConnected
    case needsFix
    case needs3DFix
    case staleFix(ageSeconds: Double)
    case inaccurate(eph: Double, radius: Double)
    case away(metres: Double, bearing: Double)
    case confirming(Int, of: Int)
    /// Confirming on a slow receiver: why a place waits longer than three seconds (docs/DESIGN.md "Lock rules").
    case confirmingEvery(Int, of: Int, seconds: Double)
    case altitude(current: Double, needs: Bounds)
    case verticalError(epv: Double, needs: Double)
    case needsPIN
    case pinRefused(until: Date)
    case weatherUnknown(WeatherUnknown, temperature: Bool)
    case weather(current: WeatherCondition?, needs: WeatherCondition)
    case temperature(current: Double, needs: Bounds)
    case sentByYou
    /// An `after` lock whose message is not in the chest.
    case waitsForMessage(PageLink)
    /// An `after` lock whose page is not open yet.
    case waitsForPage(PageLink, title: String)
    /// The message asks for hardware and the fixes are not (the level and its reasons).
    case needsHardware(String)
    /// A `,gps` time lock without GPS time from a hardware receiver.
    case needsHardwareTime(opensAt: Date)
    /// A sealed location: no distance, no bearing (docs/SECURITY.md).
    case goThere(cellsTried: Int)
    /// A sealed location whose cell key opened: the usual rule counts, still without a distance.
    case sealedConfirming(Int, of: Int)
    /// A set that needs a PIN and a place together, and no PIN yet.
    case needsPINForPlace
    /// That set's PIN is kept and tried at each new place.
    case pinKeptForPlace
    /// A release the hunt's organiser has not published yet; `arrived` while its key is being tried.
    case waitsForRelease(String, arrived: Bool)
    /// An answer lock: the reader answers the page's question (`chest answer`).
    case needsAnswer
    /// Too many wrong PINs or answers on the message: answers wait until then, as PINs do.
    case answerRefused(until: Date)
    /// A set that needs an answer and a place together, and no answer yet.
    case needsAnswerForPlace
    /// That set's answer is kept and tried at each new place.
    case answerKeptForPlace

    /// The sentence a person reads, with times in `timeZone`.
    package func text(timeZone: Zone, now: Date) -> String {
        switch self {
        case let .opensAt(date): "opens at \(Self.instant(date, timeZone, now: now))"
        case let .clockAheadOfGPS(date, offset):
            "opens at \(Self.instant(date, timeZone, now: now.addingTimeInterval(-offset))) by GPS time "
                + "(the system clock is \(Wording.offset(offset)))"
        case .gpsNotConnected: Self.noFix(gpsConnected: false)
        case .needsFix: Self.noFix(gpsConnected: true)
        case .needs3DFix: "needs a 3D fix"
        case let .staleFix(age): "the last GPS fix is \(Int(age)) s old"
        case let .inaccurate(eph, radius): "accuracy ±\(Int(eph.rounded())) m, needs ±\(radius.compact) m or better"
        case let .away(metres, bearing): "\(Wording.distance(metres)) away (\(Self.compass(bearing)))"
        case let .confirming(count, total): "\(count) of \(total) confirming fixes"
        case let .confirmingEvery(count, total, seconds):
            "fixes come every \(Self.cadence(seconds)) s: \(count) of \(total) confirming fixes"
        case let .altitude(current, needs): "at \(Int(current.rounded())) m, needs \(needs) m"
        case let .verticalError(epv, needs):
            "vertical accuracy ±\(Int(epv.rounded())) m, needs ±\(needs.compact) m or better"
        case .needsPIN: "needs the PIN"
        case let .pinRefused(until): "PIN attempts refused until \(Self.format(until, timeZone, seconds: true))"
        case let .weatherUnknown(unknown, temperature):
            (temperature ? "temperature unknown: " : "weather unknown: ") + unknown.detail(now: now, timeZone: timeZone)
        case let .weather(current, needs):
            "\(current?.presentParticiple ?? "weather unknown"), needs \(needs.rawValue)"
        case let .temperature(current, needs): "it is \(Self.tenths(current)) °C, needs \(needs) °C"
        case .sentByYou: "you sent this message"
        case let .waitsForMessage(link):
            "waits for page \(link.page) of message \(link.message.short), not in your chest"
        case let .waitsForPage(link, title): "waits for page \(link.page) of \u{201C}\(title)\u{201D} to open"
        case let .needsHardware(trust): "the organiser asks for a hardware GPS receiver; these fixes are \(trust)"
        case let .needsHardwareTime(date):
            "opens at \(Self.format(date, timeZone)) by GPS time from a hardware receiver, which chestd does not have"
        case let .goThere(tried):
            "sealed location: go there" + (tried == 0 ? "" : " (\(tried) place\(tried == 1 ? "" : "s") tried)")
        case let .sealedConfirming(count, total): "sealed location: \(count) of \(total) confirming fixes"
        case .needsPINForPlace:
            "enter the PIN (chest pin): it is tried with each new place, and a wrong PIN and a wrong place look alike"
        case let .waitsForRelease(name, arrived):
            arrived ? "released: opening" : "not released yet (chest hunt release \(name), by the organiser)"
        case .needsAnswer: "needs the answer (chest answer)"
        case .needsAnswerForPlace:
            "give the answer (chest answer): it is tried with each new place, and a wrong answer and a wrong place look alike"
        case .answerKeptForPlace:
            "answer kept: it will be tried at each new place; a wrong answer and a wrong place look alike"
        case let .answerRefused(until):
            "answers refused until \(Self.format(until, timeZone, seconds: true)) after too many wrong attempts"
        case .pinKeptForPlace: "PIN kept: it will be tried at each new place; a wrong PIN and a wrong place look alike"
        }
    }

    /// The one wording for having no fix, everywhere a person reads it: "no GPS fix yet", with the cause when
    /// gpsd itself is not there.
    package static func noFix(gpsConnected: Bool) -> String {
        gpsConnected ? "no GPS fix yet" : "no GPS fix yet: gpsd is not connected"
    }

    /// "23:35:49 (in 13 s)" today, "2026-12-24 18:00:00 CET (in 31 days)" on another day: to the second, so that
    /// a time still ahead never reads as past, and with how long is left.
    package static func instant(_ date: Date, _ zone: Zone, now: Date) -> String {
        let text: String
        if zone.local(date).isSameDay(as: zone.local(now)) {
            text = clock(date, zone)
        } else {
            text = format(date, zone, seconds: true)
        }
        let left = date.timeIntervalSince(now)
        return left >= 1 ? "\(text) (in \(Wording.duration(left)))" : text
    }

    /// The time of day to the second, "23:35:49".
    package static func clock(_ date: Date, _ zone: Zone) -> String {
        let local = zone.local(date)
        return String(printf: "%02d:%02d:%02d", local.hour, local.minute, local.second)
    }

    package static func format(_ date: Date, _ zone: Zone, seconds: Bool = false) -> String {
        let local = zone.local(date)
        let day = String(
            printf: "%04d-%02d-%02d %02d:%02d", local.year, local.month, local.day, local.hour, local.minute)
        return day + (seconds ? String(printf: ":%02d", local.second) : "") + " " + zone.name(local)
    }

    /// "5", "2.5": a receiver's seconds per epoch, measured to the millisecond and read to the second (a tenth
    /// below 3 s), so that the jitter of the measure does not show.
    package static func cadence(_ seconds: Double) -> String {
        seconds >= 3 ? String(Int(seconds.rounded())) : tenths(seconds)
    }

    /// "21", "-3.5": a temperature as a person reads it, to a tenth at most.
    static func tenths(_ value: Double) -> String {
        (value * 10).rounded() / 10 == value.rounded() ? String(Int(value.rounded())) : String(printf: "%.1f", value)
    }

    static func compass(_ bearing: Double) -> String {
        let names = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
        return names[Int((bearing + 22.5) / 45) % 8]
    }
}
