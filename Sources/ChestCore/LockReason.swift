import Foundation

/// Why a lock does not hold yet: what `chest read` shows beside it.
public enum LockReason: Hashable, Sendable, Codable {
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
    case altitude(current: Double, needs: Bounds)
    case verticalError(epv: Double, needs: Double)
    case needsPIN
    case pinRefused(until: Date)
    case weatherUnknown(WeatherUnknown, temperature: Bool)
    case weather(current: WeatherCondition?, needs: WeatherCondition)
    case temperature(current: Double, needs: Bounds)
    case sentByYou
    /// The message asks for hardware and the fixes are not (the level and its reasons).
    case needsHardware(String)
    /// A `,gps` time lock without GPS time from a hardware receiver.
    case needsHardwareTime(opensAt: Date)

    /// The sentence a person reads, with times in `timeZone`.
    public func text(timeZone: TimeZone = .current, now: Date) -> String {
        switch self {
        case let .opensAt(date): "opens at \(Self.format(date, timeZone))"
        case let .clockAheadOfGPS(date, offset):
            "opens at \(Self.format(date, timeZone)) by GPS time (the system clock is \(Wording.duration(offset)) ahead)"
        case .gpsNotConnected: "GPS not connected"
        case .needsFix: "needs a GPS fix"
        case .needs3DFix: "needs a 3D fix"
        case let .staleFix(age): "the last GPS fix is \(Int(age)) s old"
        case let .inaccurate(eph, radius): "accuracy ±\(Int(eph.rounded())) m, needs ±\(radius.compact) m or better"
        case let .away(metres, bearing): "\(Wording.distance(metres)) away (\(Self.compass(bearing)))"
        case let .confirming(count, total): "\(count) of \(total) confirming fixes"
        case let .altitude(current, needs): "at \(Int(current.rounded())) m, needs \(needs) m"
        case let .verticalError(epv, needs): "vertical accuracy ±\(Int(epv.rounded())) m, needs ±\(needs.compact) m or better"
        case .needsPIN: "needs the PIN"
        case let .pinRefused(until): "PIN attempts refused until \(Self.format(until, timeZone, seconds: true))"
        case let .weatherUnknown(unknown, temperature):
            (temperature ? "temperature unknown: " : "weather unknown: ") + unknown.detail(now: now, timeZone: timeZone)
        case let .weather(current, needs):
            "\(current?.presentParticiple ?? "weather unknown"), needs \(needs.rawValue)"
        case let .temperature(current, needs): "it is \(Self.celsius(current)) °C, needs \(needs) °C"
        case .sentByYou: "you sent this message"
        case let .needsHardware(trust): "the organiser asks for a hardware GPS receiver; these fixes are \(trust)"
        case let .needsHardwareTime(date):
            "opens at \(Self.format(date, timeZone)) by GPS time from a hardware receiver, which chestd does not have"
        }
    }

    public static func format(_ date: Date, _ zone: TimeZone, seconds: Bool = false) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = seconds ? "yyyy-MM-dd HH:mm:ss zzz" : "yyyy-MM-dd HH:mm zzz"
        return formatter.string(from: date)
    }

    static func celsius(_ value: Double) -> String {
        (value * 10).rounded() / 10 == value.rounded() ? String(Int(value.rounded())) : String(format: "%.1f", value)
    }

    static func compass(_ bearing: Double) -> String {
        let names = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
        return names[Int((bearing + 22.5) / 45) % 8]
    }
}
