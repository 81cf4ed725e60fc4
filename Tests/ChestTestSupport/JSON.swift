import ChestTestSupport
import Foundation

/// A JSON value decoded with `JSONDecoder`, for tests that look into what chest wrote: typed accessors in place of
/// `JSONSerialization` and `as? [String: Any]` casts. Stricter than those: a number is not a Bool, nor a Bool a number.
package enum JSON: Hashable, Sendable, Codable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral,
    ExpressibleByNilLiteral
{
    case null
    case bool(Bool)
    /// A number without a fraction or exponent that fits an Int.
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    /// The document in `data`; throws when it is not JSON.
    package init(_ data: Data) throws { self = try JSONDecoder().decode(JSON.self, from: data) }

    /// The document in `text`.
    package init(_ text: String) throws { try self.init(Data(text.utf8)) }

    /// One value per line of `text` (JSON lines), blank lines skipped.
    package static func lines(_ text: String) throws -> [JSON] {
        try text.split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }.map { try JSON(String($0)) }
    }

    package init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if let bool = try? value.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? value.decode(Int.self) {
            self = .integer(integer)
        } else if let number = try? value.decode(Double.self) {
            self = .number(number)
        } else if let string = try? value.decode(String.self) {
            self = .string(string)
        } else if let array = try? value.decode([JSON].self) {
            self = .array(array)
        } else {
            self = .object(try value.decode([String: JSON].self))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var value = encoder.singleValueContainer()
        switch self {
        case .null: try value.encodeNil()
        case .bool(let bool): try value.encode(bool)
        case .integer(let integer): try value.encode(integer)
        case .number(let number): try value.encode(number)
        case .string(let string): try value.encode(string)
        case .array(let array): try value.encode(array)
        case .object(let object): try value.encode(object)
        }
    }

    /// The value as JSON text's bytes.
    package var data: Data { get throws { try JSONEncoder().encode(self) } }

    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int) { self = .integer(value) }
    package init(floatLiteral value: Double) { self = .number(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(arrayLiteral elements: JSON...) { self = .array(elements) }
    package init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    package init(nilLiteral: ()) { self = .null }

    /// The member `key` of an object; `nil` for another value or a missing key. Setting it on an object adds or
    /// replaces the member (removes it when set to `nil`).
    package subscript(key: String) -> JSON? {
        get {
            guard case .object(let object) = self else { return nil }
            return object[key]
        }
        set {
            guard case .object(var object) = self else { return }
            object[key] = newValue
            self = .object(object)
        }
    }

    /// The element at `index` of an array; `nil` for another value or an index out of range.
    package subscript(index: Int) -> JSON? {
        guard case .array(let array) = self, array.indices.contains(index) else { return nil }
        return array[index]
    }

    package var string: String? {
        guard case .string(let string) = self else { return nil }
        return string
    }

    package var int: Int? {
        switch self {
        case .integer(let integer): integer
        case .number(let number): Int(exactly: number)
        default: nil
        }
    }

    package var double: Double? {
        switch self {
        case .integer(let integer): Double(integer)
        case .number(let number): number
        default: nil
        }
    }

    package var bool: Bool? {
        guard case .bool(let bool) = self else { return nil }
        return bool
    }

    package var array: [JSON]? {
        guard case .array(let array) = self else { return nil }
        return array
    }

    package var object: [String: JSON]? {
        guard case .object(let object) = self else { return nil }
        return object
    }

    /// An array of strings; `nil` when it is not an array or holds anything else.
    package var strings: [String]? {
        guard let array else { return nil }
        let strings = array.compactMap(\.string)
        return strings.count == array.count ? strings : nil
    }

    /// An array of integers; `nil` when it is not an array or holds anything else.
    package var ints: [Int]? {
        guard let array else { return nil }
        let ints = array.compactMap(\.int)
        return ints.count == array.count ? ints : nil
    }

    /// An array of numbers; `nil` when it is not an array or holds anything else.
    package var doubles: [Double]? {
        guard let array else { return nil }
        let doubles = array.compactMap(\.double)
        return doubles.count == array.count ? doubles : nil
    }

    /// The JSON object in `text`; `nil` when `text` is not JSON or holds another value.
    package static func object(_ text: some StringProtocol) -> JSON? {
        guard let value = try? JSON(String(text)), value.object != nil else { return nil }
        return value
    }

    /// An object's member names; `nil` for another value.
    package var keys: Set<String>? { object.map { Set($0.keys) } }

    package var isNull: Bool { self == .null }
}
