import ChestIO
import Foundation
import Glibc
import Testing

/// Handing memory back to the kernel (docs/BENCHMARKS.md).
@Suite struct MemoryTests {
    /// libc's code, far down /proc/self/smaps, is marked for random access and dropped like the process's own;
    /// the test itself runs on, its pages brought back from the page cache as they are used.
    ///
    /// The second release finds the mappings the first found in /proc/self/maps: libc's code, set back to normal
    /// access in between, is marked again.
    @Test func releasingCodePagesReachesTheLibrariesAndTheProcessRunsOn() throws {
        Memory.releaseCodePages()
        let first = try libcCode()
        #expect(!first.isEmpty)
        let firstMarked = first.allSatisfy { mapping in mapping.random }
        #expect(firstMarked)
        for mapping in first { _ = madvise(mapping.address, mapping.length, MADV_NORMAL) }
        let reset = try libcCode().allSatisfy { mapping in !mapping.random }
        #expect(reset)
        Memory.releaseCodePages()
        let second = try libcCode()
        #expect(second.map(\.length) == first.map(\.length))
        let secondMarked = second.allSatisfy { mapping in mapping.random }
        #expect(secondMarked)
    }

    /// libc's executable mappings in /proc/self/smaps, and whether each is marked for random access ("rr").
    func libcCode() throws -> [(address: UnsafeMutableRawPointer, length: Int, random: Bool)] {
        let smaps = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps")).readDataToEndOfFile()
        var found: [(address: UnsafeMutableRawPointer, length: Int, random: Bool)] = []
        var range: (address: UnsafeMutableRawPointer, length: Int)?
        for line in String(decoding: smaps, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            if let first = line.unicodeScalars.first, ("0"..."9").contains(first) || ("a"..."f").contains(first) {
                range = nil
                guard fields.count >= 6, fields[1] == "r-xp", fields[5].hasSuffix("/libc.so.6") else { continue }
                let bounds = fields[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
                guard bounds.count == 2, let address = UnsafeMutableRawPointer(bitPattern: bounds[0]) else { continue }
                range = (address, Int(bounds[1] - bounds[0]))
            } else if let mapping = range, fields.first == "VmFlags:" {
                found.append((mapping.address, mapping.length, fields.contains("rr")))
            }
        }
        return found
    }
}
