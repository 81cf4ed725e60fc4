import FoundationEssentials

/// A page's hints on the wire (docs/FORMAT.md "Hints"): absent when it has none, so every file without hints signs
/// and reads as before, and a chest older than hints refuses the signature of a file with them.
struct WireHint: Codable {
    var ciphertext: String?
    var key: String?
    var after: Int?
    var cost: Int?

    init(_ hint: PageHint) {
        ciphertext = Data(hint.ciphertext).base64EncodedString()
        key = hint.key.map { Data($0).base64EncodedString() }
        after = hint.after
        cost = hint.cost
    }
}

extension WirePage {
    static func wireHints(_ page: Page) -> [WireHint]? {
        page.hints.isEmpty ? nil : page.hints.map(WireHint.init)
    }

    /// The hints of a decoded page, checked.
    func pageHints(number: Int, version: Int) throws(MessageFormatError) -> [PageHint] {
        guard let hints else { return [] }
        if version < 2 { throw .wrongVersionField(version: 1, field: "pages[\(number)].hints") }
        let field = "pages[\(number)].hints"
        guard (1...Page.maximumHints).contains(hints.count) else {
            throw .invalidField(field, "a page has 1 to \(Page.maximumHints) hints, this one has \(hints.count)")
        }
        var checked: [PageHint] = []
        for (index, wire) in hints.enumerated() {
            let name = "\(field)[\(index + 1)]"
            let overhead = SealedPage.nonceBytes + SealedPage.tagBytes
            guard let text = wire.ciphertext, text.utf8.count <= 64 << 10, let bytes = Data(base64Encoded: text),
                bytes.count >= overhead + SealedPage.paddingBlock,
                (bytes.count - overhead) % SealedPage.paddingBlock == 0
            else {
                throw .invalidField("\(name).ciphertext", "not base64 of a nonce, padded text and a tag")
            }
            var key: [UInt8]?
            if let text = wire.key {
                guard let data = Data(base64Encoded: text), data.count == SealedPage.keyBytes else {
                    throw .invalidField("\(name).key", "not base64 of 32 bytes")
                }
                key = [UInt8](data)
            }
            if let after = wire.after, !(1...Page.maximumHintDelay).contains(after) {
                throw .invalidField("\(name).after", "\(after) s is outside 1 s to 30 days")
            }
            if let cost = wire.cost, !(0...Page.maximumHintCost).contains(cost) {
                throw .invalidField("\(name).cost", "\(cost) is outside 0 to \(Page.maximumHintCost) points")
            }
            if key == nil, wire.cost == nil {
                throw .invalidField("\(name).key", "a hint without its key is a hunt's, and carries its cost")
            }
            checked.append(PageHint(ciphertext: [UInt8](bytes), key: key, after: wire.after, cost: wire.cost))
        }
        return checked
    }
}
