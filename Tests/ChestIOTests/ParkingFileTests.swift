import ChestIO
import Foundation
import Testing

/// chestd's parking for sealed pages' bytes (docs/BENCHMARKS.md "Memory"): what is parked reads back, from the
/// buffer and from the file, the file has no name in its directory, and it stays readable once the directory is gone.
@Suite struct ParkingFileTests {
    @Test func parkedBytesReadBackAlsoAfterTheirDirectoryIsDeleted() throws {
        let directory = "/tmp/chest-parking-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let parking = try ParkingFile(directory: directory)
        // 300 kB in all: most written to the file, the last in the buffer.
        let blobs = (0..<1_000).map { index in (0..<(50 + index % 500)).map { UInt8(truncatingIfNeeded: $0 &+ index) } }
        let places = try blobs.map { try #require(parking.park($0)) }
        for (blob, place) in zip(blobs, places) { #expect(parking.fetch(place, count: blob.count) == blob) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty, "the file has no name")
        try FileManager.default.removeItem(atPath: directory)
        for (blob, place) in zip(blobs, places) { #expect(parking.fetch(place, count: blob.count) == blob) }
        #expect(parking.fetch(places.last! + 1_000_000, count: 10) == nil, "nothing was parked there")
    }
}
