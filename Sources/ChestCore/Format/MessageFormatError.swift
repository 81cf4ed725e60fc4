/// Why a message file or a message is refused. Each description names the fault and, where it helps, the fix.
package enum MessageFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    case empty
    case tooLarge(size: Int, limit: Int)
    case notUTF8
    case notJSON(String)
    case notAMessage
    case unsupportedVersion(Int)
    case missingField(String)
    case invalidField(String, String)
    case pageCount(Int)
    case duplicateLock(page: Int, set: LockSetName, kind: LockKind)
    case radiusTooSmall(page: Int, radius: Double)
    case latitudeOutOfRange(page: Int, Double)
    case longitudeOutOfRange(page: Int, Double)
    case pinNotFourDigits(String)
    case reversedRange(page: Int, kind: LockKind, Bounds)
    case unknownWeather(page: Int, String)
    case badTime(page: Int, String)
    case unknownLockType(page: Int, String)
    case titleEmpty
    case titleTooLong(Int)
    case pageTooLong(page: Int, Int)
    case unsealed
    case signatureMismatch
    /// A format 2 file with a format 1 field, or the other way round.
    case wrongVersionField(version: Int, field: String)
    /// A sealed part that is missing, malformed, oversized or over the cost cap.
    case sealedPart(page: Int, String)
    /// Sealed places that would ask a reader's seal worker for more than `SealBudget` allows.
    case overSealBudget(String)

    package var description: String {
        switch self {
        case .empty: "the file is empty"
        case let .tooLarge(size, limit): "the file is \(size) bytes, over the \(limit)-byte limit for a message"
        case .notUTF8: "the file is not UTF-8 text"
        case let .notJSON(detail): "the file is not a complete JSON message (truncated?): \(detail)"
        case .notAMessage: "the file is JSON but not a chest message (no \"format\": \"chest-message\")"
        case let .unsupportedVersion(version):
            "format version \(version) is not supported (this chest reads versions 1 to \(MessageFile.version)); update chest"
        case let .missingField(name): "the field \"\(name)\" is missing"
        case let .invalidField(name, why): "the field \"\(name)\" is invalid: \(why)"
        case let .pageCount(count): "a message has 1 to \(Message.maximumPages) pages, this one has \(count)"
        case let .duplicateLock(page, set, kind):
            "page \(page) has two \(kind.rawValue) locks in set \(set.rawValue); a set holds at most one of each type"
        case let .radiusTooSmall(page, radius):
            "page \(page): a location radius of \(radius.compact) m is under the \(Lock.minimumRadius.compact) m minimum"
        case let .latitudeOutOfRange(page, value): "page \(page): latitude \(value) is outside -90..90"
        case let .longitudeOutOfRange(page, value): "page \(page): longitude \(value) is outside -180..180"
        case let .pinNotFourDigits(pin): "a PIN is exactly 4 digits, \"\(pin)\" is not"
        case let .reversedRange(page, kind, bounds):
            "page \(page): the \(kind.rawValue) range \(bounds) is empty or reversed; write MIN..MAX with MIN <= MAX"
        case let .unknownWeather(page, word):
            "page \(page): unknown weather \"\(word)\"; use one of "
                + WeatherCondition.allCases.map(\.rawValue).joined(separator: ", ")
        case let .badTime(page, text):
            "page \(page): \"\(text)\" is not an ISO 8601 time such as 2026-12-24T18:00:00+01:00"
        case let .unknownLockType(page, type): "page \(page): unknown lock type \"\(type)\""
        case .titleEmpty: "the title is empty"
        case let .titleTooLong(count): "the title has \(count) characters, over \(Message.maximumTitleLength)"
        case let .pageTooLong(page, count):
            "page \(page) has \(count) characters, over \(Message.maximumPageLength)"
        case .unsealed: "the message carries no signature"
        case .signatureMismatch: "signature does not match: the file was changed after it was sealed"
        case let .wrongVersionField(version, field):
            "a format \(version) file cannot carry the field \"\(field)\" (it belongs to format \(version == 1 ? 2 : 1))"
        case let .sealedPart(page, why): "page \(page): \(why)"
        case let .overSealBudget(why): why
        }
    }
}
