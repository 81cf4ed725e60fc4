/// The checks a location and a range get wherever a lock is made: a message file being read, a `--lock` being parsed.
extension Lock {
    static func validatedLocation(
        latitude: Double, longitude: Double, radius: Double,
        page: Int
    ) throws(MessageFormatError) -> Lock {
        guard latitude.isFinite, abs(latitude) <= 90 else { throw .latitudeOutOfRange(page: page, latitude) }
        guard longitude.isFinite, abs(longitude) <= 180 else { throw .longitudeOutOfRange(page: page, longitude) }
        guard radius.isFinite, radius >= Lock.minimumRadius else { throw .radiusTooSmall(page: page, radius: radius) }
        return .location(center: Coordinate(latitude: latitude, longitude: longitude), radius: radius)
    }

    static func validatedRange(_ kind: LockKind, _ bounds: Bounds, page: Int) throws(MessageFormatError) -> Lock {
        guard bounds.min.isFinite, bounds.max.isFinite, bounds.min <= bounds.max else {
            throw .reversedRange(page: page, kind: kind, bounds)
        }
        return kind == .temperature ? .temperature(bounds) : .altitude(bounds)
    }
}
