import Synchronization

/// Where a process keeps bytes it rarely reads off the heap. A sealed page's ciphertext and key slots are read only
/// when a key is tried, the page opened or its file written again, and a message's signature only when its file is
/// written again or a receipt quotes it, so chestd parks them in a file of its own (ChestIO's `ParkingFile`:
/// unnamed, so it stays readable when the chest directory is deleted under chestd, which then writes every message
/// back from them) and keeps only where they are (docs/BENCHMARKS.md "Memory"). Without one installed (`chest`, the
/// core's tests) the bytes stay in memory.
package protocol BytesParking: AnyObject, Sendable {
    /// Stores `bytes`; returns where they are, or nil when they could not be stored (they then stay in memory).
    func park(_ bytes: [UInt8]) -> UInt64?
    /// The `count` bytes parked at `offset`; nil when they cannot be read.
    func fetch(_ offset: UInt64, count: Int) -> [UInt8]?
}

/// Bytes in the process's parking when one is installed, else in memory: 16 bytes in line either way.
package struct ParkedBytes: Hashable, Sendable {
    enum Storage: Hashable, Sendable {
        case inline([UInt8])
        /// The offset (32 bits), the length (24 bits) and the caller's tag (8 bits, a sealed page's format) in one
        /// word.
        case parked(UInt64)
    }

    let storage: Storage
    /// The tag given when the bytes were stored.
    package let tag: UInt8

    /// Stores `bytes` in the parking when there is one, tagged with `tag`.
    package init(_ bytes: [UInt8], tag: UInt8 = 0) {
        self.tag = tag
        storage = Self.park(bytes, tag: tag).map(Storage.parked) ?? .inline(bytes)
    }

    /// The bytes, from the parking when they are there; nil when they can no longer be read (its file failed).
    package var bytes: [UInt8]? {
        switch storage {
        case let .inline(bytes): bytes
        case let .parked(place): Self.installed.withLock { $0 }?.fetch(place >> 32, count: Int(place >> 8 & 0xFF_FFFF))
        }
    }

    /// Whether the bytes are parked, not in memory.
    package var isParked: Bool {
        if case .parked = storage { true } else { false }
    }

    package static func == (a: ParkedBytes, b: ParkedBytes) -> Bool {
        a.tag == b.tag && (a.storage == b.storage || a.bytes == b.bytes)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(tag)
        hasher.combine(bytes)
    }

    /// Installs the process's parking: bytes stored from then on go there. The first one installed stays for the
    /// life of the process (what was parked refers to it); later calls change nothing.
    package static func park(in parking: some BytesParking) {
        installed.withLock { installed in
            if installed == nil { installed = parking }
        }
    }

    private static let installed = Mutex<(any BytesParking)?>(nil)

    private static func park(_ bytes: [UInt8], tag: UInt8) -> UInt64? {
        guard bytes.count < 1 << 24, let parking = installed.withLock({ $0 }), let offset = parking.park(bytes),
            offset < 1 << 32
        else { return nil }
        return offset << 32 | UInt64(bytes.count) << 8 | UInt64(tag)
    }
}
