import FoundationEssentials

/// Any JSON value, for the few files whose fields are not known in advance (the config file, a GeoJSON export):
/// what `JSONSerialization`'s `Any` gave, typed, through JSONDecoder and JSONEncoder.
package enum JSONValue: Codable, Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if let bool = try? value.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? value.decode(Double.self) {
            self = .number(number)
        } else if let string = try? value.decode(String.self) {
            self = .string(string)
        } else if let array = try? value.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try value.decode([String: JSONValue].self))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var value = encoder.singleValueContainer()
        switch self {
        case .null: try value.encodeNil()
        case .bool(let bool): try value.encode(bool)
        case .number(let number):
            if number == number.rounded(), number.magnitude < 0x1p53 {
                try value.encode(Int64(number))
            } else {
                try value.encode(number)
            }
        case .string(let string): try value.encode(string)
        case .array(let array): try value.encode(array)
        case .object(let object): try value.encode(object)
        }
    }

    /// The value as a person would write it in a setting: a string as it is, `true`/`false`, a whole number
    /// without ".0", anything else as JSON.
    package var text: String {
        switch self {
        case .string(let string): string
        case .bool(let bool): bool ? "true" : "false"
        case .number(let number) where number == number.rounded() && number.magnitude < 0x1p53: String(Int64(number))
        case .number(let number): "\(number)"
        case .null: "null"
        case .array, .object: (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
    }
}
