import FoundationEssentials

/// A key slot on the wire (docs/FORMAT.md "Key slots").
struct WireKeySlot: Codable {
    /// "argon2id", "cells" (format 3) or "guard".
    var kind: String?
    var salt: String?
    var passes: Int?
    var memory: Int?
    /// Format 5: Argon2id runs side by side that make the key; absent for one.
    var lanes: Int?
    var wrapped: String?
    var key: String?
    /// Format 3's "cells": the page key wrapped under each touched cell's key, and filler.
    var keys: [String]?

    init(_ slot: KeySlot) {
        switch slot {
        case let .sealed(salt, cost, wrapped):
            kind = "argon2id"
            self.salt = Data(salt).base64EncodedString()
            passes = cost.passes
            memory = cost.memory
            lanes = cost.lanes > 1 ? cost.lanes : nil
            self.wrapped = Data(wrapped).base64EncodedString()
        case let .cells(salt, cost, wrapped), let .answers(salt, cost, wrapped):
            if case .cells = slot { kind = "cells" } else { kind = "answers" }
            self.salt = Data(salt).base64EncodedString()
            passes = cost.passes
            memory = cost.memory
            lanes = cost.lanes > 1 ? cost.lanes : nil
            keys = wrapped.map { Data($0).base64EncodedString() }
        case let .guarded(key):
            kind = "guard"
            self.key = Data(key).base64EncodedString()
        }
    }

    func slot(page: Int, set: LockSetName, version: Int) throws(MessageFormatError) -> KeySlot {
        let name = "key\(set.rawValue)"
        func bytes(_ text: String?, _ field: String, count: Int) throws(MessageFormatError) -> [UInt8] {
            guard let text else { throw .sealedPart(page: page, "\(name).\(field) is missing") }
            guard text.utf8.count <= 4 * count, let data = Data(base64Encoded: text), data.count == count else {
                throw .sealedPart(page: page, "\(name).\(field) is not base64 of \(count) bytes")
            }
            return [UInt8](data)
        }
        func cost() throws(MessageFormatError) -> SealCost {
            guard key == nil else { throw .sealedPart(page: page, "\(name) is sealed but also carries a key") }
            guard let passes, let memory else {
                throw .sealedPart(page: page, "\(name) lacks its Argon2id passes or memory")
            }
            guard lanes == nil || version >= 5 else {
                throw .sealedPart(page: page, "\(name).lanes needs format 5; this file says \(version)")
            }
            guard lanes != 1 else { throw .sealedPart(page: page, "\(name).lanes is 1: leave it out for one lane") }
            let cost = SealCost(passes: passes, memory: memory, lanes: lanes ?? 1)
            if let problem = cost.problem { throw .sealedPart(page: page, "\(name): \(problem)") }
            return cost
        }
        switch kind {
        case "argon2id":
            guard keys == nil else { throw .sealedPart(page: page, "\(name) is \"argon2id\" but carries cell keys") }
            return .sealed(
                salt: try bytes(salt, "salt", count: SealedPage.saltBytes), cost: try cost(),
                wrapped: try bytes(wrapped, "wrapped", count: SealedPage.wrappedBytes))
        case "cells" where version >= 3:
            guard wrapped == nil else {
                throw .sealedPart(page: page, "\(name) is \"cells\" but carries a single wrapped key")
            }
            // A place with an answer lock holds a key per cell and answer (WirePage+Game.swift checks which).
            let counts = [
                SealedPage.cellSlots, SealedPage.cellSlots * SealedPage.answerSlots,
                SealedPage.cellSlots(version: version, withPIN: true),
            ]
            guard let keys, counts.contains(keys.count) else {
                let withPIN = counts[2] == SealedPage.cellSlots ? "" : ", \(counts[2]) with a PIN"
                throw .sealedPart(
                    page: page,
                    "\(name) must hold exactly \(SealedPage.cellSlots) cell keys (\(counts[1]) with an answer\(withPIN))"
                )
            }
            var wrapped: [[UInt8]] = []
            for index in keys.indices {
                wrapped.append(try bytes(keys[index], "keys[\(index)]", count: SealedPage.wrappedBytes))
            }
            return .cells(
                salt: try bytes(salt, "salt", count: SealedPage.saltBytes), cost: try cost(), wrapped: wrapped)
        case "answers":
            guard wrapped == nil else {
                throw .sealedPart(page: page, "\(name) is \"answers\" but carries a single wrapped key")
            }
            guard let keys, keys.count == SealedPage.answerSlots else {
                throw .sealedPart(page: page, "\(name) must hold exactly \(SealedPage.answerSlots) answer keys")
            }
            var wrapped: [[UInt8]] = []
            for index in keys.indices {
                wrapped.append(try bytes(keys[index], "keys[\(index)]", count: SealedPage.wrappedBytes))
            }
            return .answers(
                salt: try bytes(salt, "salt", count: SealedPage.saltBytes), cost: try cost(), wrapped: wrapped)
        case "guard":
            guard salt == nil, wrapped == nil, keys == nil, passes == nil, memory == nil, lanes == nil else {
                throw .sealedPart(page: page, "\(name) is a guard but also carries Argon2id fields")
            }
            return .guarded(key: try bytes(key, "key", count: SealedPage.keyBytes))
        default:
            let kinds =
                version >= 3
                ? "\"argon2id\", \"cells\", \"answers\" or \"guard\"" : "\"argon2id\", \"answers\" or \"guard\""
            throw .sealedPart(page: page, "\(name).kind is \(kind.map { "\"\($0)\"" } ?? "missing"); use \(kinds)")
        }
    }
}

/// A sealed location's grid on the wire (docs/FORMAT.md "Sealed locations").
struct WireCellGrid: Codable {
    var width: Double
    var offsetX: Double
    var offsetY: Double
    var referenceLatitude: Int
    var referenceLongitude: Int
    /// Format 3: the declared search area.
    var area: SearchArea?

    init(_ grid: CellGrid) {
        width = grid.width
        offsetX = grid.offsetX
        offsetY = grid.offsetY
        referenceLatitude = grid.referenceLatitude
        referenceLongitude = grid.referenceLongitude
        area = grid.area
    }

    var grid: CellGrid {
        CellGrid(
            width: width, offsetX: offsetX, offsetY: offsetY, referenceLatitude: referenceLatitude,
            referenceLongitude: referenceLongitude, area: area)
    }
}

extension WirePage {
    mutating func setSealed(_ sealed: SealedPage) {
        ciphertext = Data(sealed.ciphertext).base64EncodedString()
        keyA = sealed.slots[.a].map(WireKeySlot.init)
        keyB = sealed.slots[.b].map(WireKeySlot.init)
    }

    /// A format 2 page: no text in the clear, a ciphertext, and exactly one slot per non-empty set whose kind
    /// matches the set (sealed when it holds a PIN or a sealed location, a guard otherwise). A page without locks
    /// has a guard in `keyA`.
    func sealedPage(number: Int, version: Int) throws(MessageFormatError) -> Page {
        if text != nil { throw .wrongVersionField(version: 2, field: "pages[\(number)].text") }
        guard let ciphertext else { throw .sealedPart(page: number, "the ciphertext is missing") }
        let overhead = SealedPage.nonceBytes + SealedPage.tagBytes
        guard ciphertext.utf8.count <= MessageFile.sizeLimit, let bytes = Data(base64Encoded: ciphertext),
            bytes.count >= overhead + SealedPage.paddingBlock, (bytes.count - overhead) % SealedPage.paddingBlock == 0
        else {
            throw .sealedPart(page: number, "the ciphertext is not base64 of a nonce, padded content and a tag")
        }
        let setA = try locks(a, .a, number: number, version: version)
        let setB = try locks(b, .b, number: number, version: version)
        var slots: [LockSetName: KeySlot] = [:]
        for (set, locks, wire) in [(LockSetName.a, setA, keyA), (.b, setB, keyB)] {
            let needed = !locks.isEmpty || (set == .a && setB.isEmpty)
            guard needed else {
                if wire != nil { throw .sealedPart(page: number, "set \(set.rawValue) is empty but has a key slot") }
                continue
            }
            guard let wire else { throw .sealedPart(page: number, "set \(set.rawValue) has no key slot") }
            if locks.contains(where: { $0.kind == .release }),
                locks.contains(where: { $0.isSecret && $0.kind != .release })
            {
                throw .sealedPart(
                    page: number,
                    "set \(set.rawValue) holds a release with a PIN or sealed location; a release is the only secret of its set"
                )
            }
            let slot = try wire.slot(page: number, set: set, version: version)
            try Self.checkAnswerSlot(slot, locks, set: set, page: number, version: version)
            let place = locks.contains { if case .sealedLocation = $0 { true } else { false } }
            switch (slot, locks.contains(where: \.isSecret)) {
            case (.guarded, true):
                throw .sealedPart(
                    page: number,
                    "set \(set.rawValue) holds a PIN, a sealed location or a release but its key is in the clear")
            case (.sealed, false), (.cells, false):
                throw .sealedPart(
                    page: number, "set \(set.rawValue) has no PIN, sealed location or release to derive its key from")
            case (.sealed, true) where version >= 3 && place:
                throw .sealedPart(
                    page: number, "set \(set.rawValue) holds a sealed location, so its slot must be \"cells\"")
            case (.cells, true) where !place:
                throw .sealedPart(page: number, "set \(set.rawValue) has \"cells\" keys but no sealed location")
            default: slots[set] = slot
            }
        }
        var page = Page(
            text: "", setA: setA, setB: setB,
            sealed: SealedPage(ciphertext: [UInt8](bytes), slots: slots, version: version))
        page.attachments = try sealedAttachments(number: number)
        return page
    }
}

extension WireLock {
    /// A format 2 lock that differs from format 1 (a sealed location or PIN), nil for one read as in format 1.
    func sealedLock(_ kind: LockKind, page: Int, version: Int) throws(MessageFormatError) -> Lock? {
        switch kind {
        case .location:
            if let cell {
                guard latitude == nil, longitude == nil, radius == nil, visible == nil else {
                    throw .sealedPart(page: page, "a sealed location carries its point in the clear")
                }
                let grid = cell.grid
                if version >= 3, grid.area == nil {
                    throw .sealedPart(page: page, "a format 3 sealed location must declare its search area (cell.area)")
                }
                if version == 2, grid.area != nil {
                    throw .wrongVersionField(version: 2, field: "pages[\(page)].cell.area")
                }
                guard grid.isValid else { throw .sealedPart(page: page, "the sealed location's cell grid is invalid") }
                return .sealedLocation(grid)
            }
            guard visible == true else {
                throw .sealedPart(page: page, "a location in format 2 is sealed (\"cell\") or marked \"visible\": true")
            }
            return nil
        case .pin:
            if argon2id != nil { throw .wrongVersionField(version: 2, field: "pages[\(page)].argon2id") }
            return .sealedPIN
        case .answer:
            if visible != nil || cell != nil || name != nil || argon2id != nil {
                throw .sealedPart(
                    page: page, "an answer lock carries nothing but its type: the answers are part of the key")
            }
            return .answer
        case .release:
            guard let name, Lock.isValidReleaseName(name) else {
                throw .sealedPart(page: page, "a release lock's name is missing or not a valid release name")
            }
            return .release(name)
        default:
            if visible != nil || cell != nil {
                throw .sealedPart(page: page, "a \(kind.rawValue) lock has location fields")
            }
            if name != nil { throw .sealedPart(page: page, "a \(kind.rawValue) lock has a release name") }
            return nil
        }
    }
}

extension SealCost {
    /// Why a format 1 PIN hash's parameters ("$argon2id$v=19$m=KiB,t=N,p=1$…") are refused, or nil.
    static func encodedHashProblem(_ encoded: String) -> String? {
        let fields = encoded.split(separator: "$")
        guard fields.count >= 3 else { return "the PIN hash has no parameters" }
        var values: [String: Int] = [:]
        for pair in fields[2].split(separator: ",") {
            let parts = pair.split(separator: "=")
            if parts.count == 2, let value = Int(parts[1]) { values[String(parts[0])] = value }
        }
        guard let kib = values["m"], let passes = values["t"], kib <= Int.max >> 10 else {
            return "the PIN hash has no parameters"
        }
        return SealCost(passes: passes, memory: kib << 10).problem.map { "PIN hash: " + $0 }
    }
}
