import ChestIO
import Foundation

@testable import ChestCore

/// Builders shared by the ChestCore tests, namespaced so they cannot clash with other test files' helpers.
enum CoreFixture {
    /// 2027-01-15T08:00:00Z: a fixed wall-clock instant.
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static let utc = Zone(identifier: "UTC")!

    /// Both clocks at `t0 + seconds` (the monotonic clock starts at 1000 s).
    static func now(_ seconds: Double = 0) -> Now {
        Now(wall: t0.addingTimeInterval(seconds), monotonic: 1000 + seconds)
    }

    static func id(_ n: UInt8) -> MessageID {
        MessageID(bytes: [n] + [UInt8](repeating: 0xab, count: 15))
    }

    static func message(_ n: UInt8 = 1, title: String = "Test", pages: [Page]) -> Message {
        Message(
            id: id(n), title: title, from: "Alice", created: Date(timeIntervalSince1970: 1_790_000_000),
            pages: pages,
            seal: Seal(publicKey: [UInt8](repeating: 7, count: 32), signature: [UInt8](repeating: 9, count: 64)))
    }

    static func stored(_ message: Message, sentByYou: Bool = false, chest: ChestKind = .regular) -> StoredMessage {
        StoredMessage(message: message, state: MessageState(ingestedAt: t0), chest: chest, sentByYou: sentByYou)
    }

    /// Eiffel Tower.
    static let tower = Coordinate(latitude: 48.85837, longitude: 2.29448)

    /// `coordinate` moved `metres` north.
    static func north(of coordinate: Coordinate, metres: Double) -> Coordinate {
        Coordinate(
            latitude: coordinate.latitude + metres / (Coordinate.earthRadius * .pi / 180),
            longitude: coordinate.longitude)
    }

    /// A fix received at `now(seconds)` with receiver time `t0 + seconds` (one epoch per second).
    static func fix(
        at seconds: Double, _ coordinate: Coordinate? = tower, mode: FixMode = .threeD, altitude: Double? = 100,
        eph: Double? = 5, time: Date?? = nil
    ) -> Fix {
        Fix(
            mode: mode, coordinate: coordinate, altitudeMSL: altitude, eph: eph, epv: 8, satellitesUsed: 9,
            time: time ?? t0.addingTimeInterval(seconds), receivedAt: 1000 + seconds)
    }

    /// The client that sends the tests' requests.
    static let client = ClientID(1)

    static func engine(_ messages: [StoredMessage], connected: Bool = true, at seconds: Double = 0) -> Engine {
        var engine = Engine(gpsServer: "localhost:2947")
        if connected { _ = engine.handle(.gpsLink(connected: true, server: "localhost:2947", reason: nil)) }
        _ = engine.handle(.loaded(messages, refused: [], now(seconds)))
        return engine
    }

    /// A format 3 message from the sender whose key is 32 bytes of `sender`, whose pages hold `grids` sealed places
    /// (two a page, sets a and b), each on a grid of its own over `area`, their cells wrapped at `cost`; each salt
    /// ends in 14 bytes of `saltFill`.
    static func sealedGrids(
        _ id: UInt8, sender: UInt8, grids: Int, area: SearchArea, cost: SealCost, saltFill: UInt8,
        using generator: inout SeededGenerator
    ) -> Message {
        let pages = stride(from: 0, to: grids, by: 2).map { first in
            var sets: [LockSetName: (Lock, KeySlot)] = [:]
            for (offset, set) in [LockSetName.a, .b].enumerated() where first + offset < grids {
                sets[set] = (
                    .sealedLocation(CellGrid(area: area, radius: 30, using: &generator)),
                    .cells(
                        salt: [id, UInt8(first + offset)] + [UInt8](repeating: saltFill, count: 14), cost: cost,
                        wrapped: [[UInt8]](repeating: [UInt8](repeating: 6, count: 72), count: 4))
                )
            }
            return Page(
                text: "", setA: sets[.a].map { [$0.0] } ?? [], setB: sets[.b].map { [$0.0] } ?? [],
                sealed: SealedPage(
                    ciphertext: [UInt8](repeating: 3, count: 296), slots: sets.mapValues(\.1), version: 3))
        }
        return Message(
            id: Self.id(id), title: "m\(id)", from: "Sender \(sender)", created: t0, pages: pages,
            seal: Seal(publicKey: [UInt8](repeating: sender, count: 32), signature: [UInt8](repeating: 9, count: 64)))
    }
}

extension [Engine.Effect] {
    /// The (page, set) of every `unlocked` event, in order.
    var unlocks: [Int] {
        flattened.compactMap { effect in
            if case let .emit(.unlocked(unlock)) = effect { unlock.page } else { nil }
        }
    }

    var unlockEvents: [Unlock] {
        flattened.compactMap { effect in
            if case let .emit(.unlocked(unlock)) = effect { unlock } else { nil }
        }
    }

    var wakes: [Date?] {
        flattened.compactMap { effect in
            if case let .wake(at) = effect { .some(at) } else { nil }
        }
    }

    var pinResults: [PINOutcome] {
        flattened.compactMap { effect in
            if case let .reply(_, .pin(outcome)) = effect { outcome } else { nil }
        }
    }

    var persisted: [MessageState] {
        flattened.compactMap { effect in
            if case let .persist(_, state, _) = effect { state } else { nil }
        }
    }
}

extension Engine.Input {
    /// `chest pin` from the tests' client.
    static func pin(_ id: MessageID, page: Int?, pin: String, _ now: Now) -> Engine.Input {
        .request(CoreFixture.client, ControlRequest.pin(id: id.rawValue, pin: pin, page: page), now)
    }
}

extension Engine {
    /// Messages arriving through the inbox, stored: the engine's decision, then the daemon's success reported back.
    /// The effects of both steps, without the store request itself.
    mutating func ingest(_ messages: [StoredMessage], _ now: Now) -> [Effect] {
        let arrivals = messages.map { stored in
            Arrival(
                source: .staged(path: "/tmp/incoming/\(stored.id)"), file: "\(stored.id).locked",
                content: .message(stored.message, sentByYou: stored.sentByYou))
        }
        var effects: [Effect] = []
        for effect in handle(.arrived(arrivals, now)) {
            if case let .change(change) = effect {
                effects += handle(.changed(change, .done, now))
            } else {
                effects.append(effect)
            }
        }
        return effects
    }
}

/// The reasons `read` gives for one page's locks, as text, by lock type.
func reasons(_ engine: Engine, _ id: MessageID, page: Int, set: LockSetName = .a, now: Now) -> [LockKind: String] {
    guard let report = engine.read(id, now: now), let sets = report.pages.first(where: { $0.number == page })?.sets,
        let locks = sets.first(where: { $0.set == set })?.locks
    else { return [:] }
    var result: [LockKind: String] = [:]
    for lock in locks {
        result[lock.type] = lock.reason?.text(timeZone: CoreFixture.utc, now: CoreFixture.t0) ?? "holds"
    }
    return result
}
