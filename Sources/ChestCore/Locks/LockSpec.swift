import FoundationEssentials
import Glibc

/// A lock as `compose` writes it on the command line (docs/DESIGN.md "Commands and output"), before the parts that need the daemon (`here`)
/// or libsodium (hashing a PIN) are resolved.
package enum LockSpec: Hashable, Sendable {
    case lock(Lock)
    case pin(digits: String)
    /// `location=here/30m`: chestd's current fix, this radius.
    case locationHere(radius: Double)
    /// `altitude=here±20`: chestd's current altitude, plus or minus this margin.
    case altitudeHere(margin: Double)
    /// `location=…,visible` (or `,visible=NAME`): a location whose point format 2 keeps in the clear, so the reader
    /// sees distance and direction (docs/FORMAT.md "Format 2"), with the organiser's name for the place, if any.
    indirect case visible(LockSpec, label: String?)
    /// `answer=TEXT|TEXT…`: the page opens to one of these answers to its question (docs/FORMAT.md "Answer locks"), as
    /// the organiser wrote them.
    case answer(String)

    /// The forms, for help and errors.
    package static let forms = """
        location=LAT,LON/RADIUS   e.g. location=48.85837,2.29448/30m (m or km; here/30m uses chestd's fix); \
        sealed (the file says only the search area): add ,visible to keep the point in the clear, ,visible=NAME to \
        name it too (e.g. ,visible=Sé)
        time=ISO8601[,gps]        e.g. time=2026-12-24T18:00:00+01:00 (,gps: only by a hardware receiver's time)
        pin=DDDD                  e.g. pin=4821 (4 to 12 digits; format 1 takes 4)
        weather=CONDITION         one of clear, cloudy, rainy, snowy, thundery
        temperature=MIN..MAX      e.g. temperature=-5..3 (°C)
        altitude=MIN..MAX         e.g. altitude=1200..1300 (m above sea level; here±20 works too)
        after=ID#PAGE             e.g. after=51039195f651446bd718bc729cc585fc#2 (that page is open); after=#2: page 2 of this message
        release=NAME              e.g. release=finale (opens when the hunt's organiser releases it; needs --hunt)
        answer=TEXT[|TEXT...]     e.g. answer=Zytglogge|Zeitglockenturm (chest answer; case, width and spacing do not matter)
        """

    /// Reads one `--lock` value. Times without a zone are read in `timeZone`.
    package static func parse(_ text: String, timeZone: Zone) throws(LockSpecError) -> LockSpec {
        guard let equals = text.firstIndex(of: "=") else {
            throw LockSpecError(text, "expected TYPE=VALUE, such as pin=4821")
        }
        let type = text[..<equals].lowercased()
        let value = String(text[text.index(after: equals)...])
        guard let kind = LockKind(rawValue: type) else {
            throw LockSpecError(
                text,
                "unknown lock type \"\(type)\"; use location, time, pin, weather, temperature, altitude, after, release or answer"
            )
        }
        switch kind {
        case .location: return try location(value, text)
        case .time:
            let gps = value.lowercased().hasSuffix(",gps")
            guard let date = ISO8601.parse(gps ? String(value.dropLast(4)) : value, localZone: timeZone) else {
                throw LockSpecError(text, "not an ISO 8601 time; write it like 2026-12-24T18:00:00+01:00")
            }
            return .lock(gps ? .gpsTime(date) : .time(date))
        case .pin:
            guard PINAttempts.isWellFormed(value, maximumDigits: PINAttempts.maximumSealedDigits) else {
                throw LockSpecError(text, "a PIN is 4 to \(PINAttempts.maximumSealedDigits) digits, such as pin=4821")
            }
            return .pin(digits: value)
        case .weather:
            guard let condition = WeatherCondition(rawValue: value.lowercased()) else {
                throw LockSpecError(text, "unknown weather; use clear, cloudy, rainy, snowy or thundery")
            }
            return .lock(.weather(condition))
        case .temperature:
            return .lock(.temperature(try range(value, text, unit: "°C")))
        case .altitude:
            for sign in ["±", "+-", "+/-"] where value.lowercased().hasPrefix("here" + sign) {
                guard let margin = Double(value.dropFirst(4 + sign.count).replacing("m", with: "")),
                    margin.isFinite, margin >= 0
                else {
                    throw LockSpecError(text, "write here±METRES, such as altitude=here±20")
                }
                try checkAltitudeSpan(2 * margin, text)
                return .altitudeHere(margin: margin)
            }
            let bounds = try range(value, text, unit: "m")
            try checkAltitudeSpan(bounds.max - bounds.min, text)
            return .lock(.altitude(bounds))
        case .after:
            guard let link = PageLink(value) else {
                throw LockSpecError(
                    text, "write after=MESSAGE_ID#PAGE, such as after=51039195f651446bd718bc729cc585fc#2")
            }
            return .lock(.after(link))
        case .release:
            guard Lock.isValidReleaseName(value) else {
                throw LockSpecError(
                    text, "a release is named by up to 32 letters, digits, - or _, such as release=finale")
            }
            return .lock(.release(value))
        case .answer:
            if let problem = AnswerText.problem(value) { throw LockSpecError(text, problem) }
            return .answer(value)
        }
    }

    /// Refuses a range narrower than GPS altitude can hold, as a radius under 10 m is refused.
    private static func checkAltitudeSpan(_ span: Double, _ text: String) throws(LockSpecError) {
        guard span >= Lock.minimumAltitudeSpan else {
            throw LockSpecError(
                text,
                "an altitude range under \(Lock.minimumAltitudeSpan.compact) m cannot be trusted with a consumer GPS; make it 20 m wide or more (here±10)"
            )
        }
    }

    private static func location(_ value: String, _ text: String) throws(LockSpecError) -> LockSpec {
        if value.lowercased().hasSuffix(",visible") {
            return .visible(try location(String(value.dropLast(8)), text), label: nil)
        }
        if let start = value.indices.last(where: { value[$0...].prefix(9).lowercased() == ",visible=" }) {
            let label = String(value[value.index(start, offsetBy: 9)...]).trimmingSpaces()
            if let problem = Page.labelProblem(label) { throw LockSpecError(text, problem) }
            return .visible(try location(String(value[..<start]), text), label: label)
        }
        let parts = value.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw LockSpecError(text, "write LAT,LON/RADIUS, such as 48.85837,2.29448/30m") }
        let radius = try metres(String(parts[1]), text)
        guard radius >= Lock.minimumRadius else {
            throw LockSpecError(
                text,
                "a radius under \(Lock.minimumRadius.compact) m cannot be trusted with a consumer GPS; use 10m or more")
        }
        if parts[0].lowercased() == "here" { return .locationHere(radius: radius) }
        let numbers = parts[0].split(separator: ",").map { Double($0.trimmingSpaces()) }
        guard numbers.count == 2, let latitude = numbers[0], let longitude = numbers[1] else {
            throw LockSpecError(text, "write LAT,LON/RADIUS in decimal degrees, such as 48.85837,2.29448/30m")
        }
        do {
            return .lock(try Lock.validatedLocation(latitude: latitude, longitude: longitude, radius: radius, page: 0))
        } catch {
            throw LockSpecError(text, error.description.replacing("page 0: ", with: ""))
        }
    }

    private static func metres(_ text: String, _ whole: String) throws(LockSpecError) -> Double {
        let lower = text.lowercased()
        let (number, scale) =
            lower.hasSuffix("km")
            ? (lower.dropLast(2), 1000.0)
            : lower.hasSuffix("m") ? (lower.dropLast(), 1.0) : (Substring(lower), 1.0)
        guard let value = Double(number), value.isFinite else {
            throw LockSpecError(whole, "the radius \"\(text)\" is not a distance; write 30m or 1.5km")
        }
        return value * scale
    }

    private static func range(_ value: String, _ text: String, unit: String) throws(LockSpecError) -> Bounds {
        let parts = value.components(separatedBy: "..")
        guard parts.count == 2, let low = Double(parts[0]), let high = Double(parts[1]), low.isFinite, high.isFinite
        else {
            throw LockSpecError(text, "write MIN..MAX in \(unit), such as \(unit == "m" ? "1200..1300" : "-5..3")")
        }
        guard low <= high else { throw LockSpecError(text, "the range is reversed; write the smaller number first") }
        return Bounds(min: low, max: high)
    }
}

/// A `--lock` value `compose` cannot read, and how to write it.
package struct LockSpecError: Error, Hashable, Sendable, CustomStringConvertible {
    package var spec: String
    package var problem: String

    package init(_ spec: String, _ problem: String) {
        self.spec = spec
        self.problem = problem
    }

    package var description: String { "--lock \(spec): \(problem)" }
}
