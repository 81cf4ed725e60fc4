import FoundationEssentials

/// Why a hunt file or a message from the broker cannot be used: a sentence saying what is wrong and, where it
/// helps, what to do (docs/HUNTS.md).
package struct HuntError: Error, Hashable, Sendable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

extension HuntError {
    /// `data` decoded as `T` with the project's JSON conventions, at most `limit` bytes; a refusal says what is
    /// wrong, after `what` ("not a chest hunt file: …"), or is the sentence a type's own decoding said. The caller
    /// validates the fields.
    static func decoding<T: Decodable>(_ type: T.Type, from data: Data, limit: Int, what: String) throws(HuntError) -> T
    {
        guard data.count <= limit else { throw HuntError("\(what): larger than \(limit) bytes") }
        do {
            return try ChestJSON.decoder().decode(type, from: data)
        } catch let error as HuntError {
            throw error
        } catch let error as DecodingError {
            throw HuntError("\(what): " + HuntFile.sentence(error))
        } catch {
            throw HuntError("\(what): \(error)")
        }
    }
}
