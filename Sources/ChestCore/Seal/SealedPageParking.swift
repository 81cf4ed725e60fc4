import Synchronization

/// Where a process keeps its sealed pages' bytes off the heap. A page's ciphertext and key slots are read only when a
/// key is tried, the page opened or its file written again, so chestd parks them in a file of its own (ChestIO's
/// `ParkingFile`: unnamed, so it stays readable when the chest directory is deleted under chestd, which then writes
/// every message back from them) and each page keeps only where its bytes are (docs/BENCHMARKS.md "Memory").
/// Without one installed (`chest`, the core's tests) pages keep their bytes in memory.
package protocol SealedPageParking: AnyObject, Sendable {
    /// Stores `bytes`; returns where they are, or nil when they could not be stored (they then stay in memory).
    func park(_ bytes: [UInt8]) -> UInt64?
    /// The `count` bytes parked at `offset`; nil when they cannot be read.
    func fetch(_ offset: UInt64, count: Int) -> [UInt8]?
}

extension SealedPage {
    /// Installs the process's parking: every sealed page made from then on keeps its bytes there. The first one
    /// installed stays for the life of the process (pages made since refer to it); later calls change nothing.
    package static func park(in parking: some SealedPageParking) {
        Parking.installed.withLock { installed in
            if installed == nil { installed = parking }
        }
    }

    /// Whether this page's bytes are parked, not in memory.
    package var isParked: Bool {
        if case .parked = storage { true } else { false }
    }

    enum Parking {
        static let installed = Mutex<(any SealedPageParking)?>(nil)

        /// A parked page's place: the offset (32 bits), the length (24 bits) and the format (8 bits) in one word.
        static func park(_ bytes: [UInt8], version: Int) -> UInt64? {
            guard bytes.count < 1 << 24, (0..<256).contains(version),
                let parking = installed.withLock({ $0 }), let offset = parking.park(bytes), offset < 1 << 32
            else { return nil }
            return offset << 32 | UInt64(bytes.count) << 8 | UInt64(version)
        }

        static func fetch(_ place: UInt64) -> [UInt8]? {
            installed.withLock { $0 }?.fetch(place >> 32, count: Int(place >> 8 & 0xFF_FFFF))
        }

        static func version(_ place: UInt64) -> Int { Int(place & 0xFF) }
    }
}
