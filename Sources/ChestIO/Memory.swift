import Foundation
import Glibc

/// Hands freed heap pages back to the kernel after a burst of work (glibc's `malloc_trim(3)`, which Swift's Glibc
/// module does not import): ingesting thousands of files leaves megabytes of decoder garbage between live objects.
@_silgen_name("malloc_trim")
private func malloc_trim(_ pad: Int) -> Int32

@_silgen_name("mallopt")
private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32

/// The process's heap.
public enum Memory {
    /// Returns free heap pages to the kernel.
    public static func releaseFreePages() { _ = malloc_trim(0) }

    /// One malloc arena for every thread (glibc's M_ARENA_MAX, -8 in malloc.h): chestd's threads rarely allocate
    /// at once, and each extra arena keeps its own free pages resident (about 1 MB with 10,000 messages,
    /// docs/BENCHMARKS.md).
    public static func useOneArena() { _ = mallopt(-8, 1) }

    /// Lets the kernel take back the code pages of this process and its libraries that start-up and a burst of
    /// ingest used and steady work does not: the kernel maps code in 64 KB runs around each page touched, so
    /// loading a chest leaves megabytes of decoder and start-up code resident. Only executable mappings of files
    /// are touched: their pages are never written, so dropping them only means reading them again from the page
    /// cache if they are needed; `MADV_RANDOM` makes that fault bring back the one page, not its neighbours.
    public static func releaseCodePages() {
        guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return }
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "r-xp", fields[4] != "0", fields[5].hasPrefix("/") else { continue }
            let range = fields[0].split(separator: "-")
            guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16),
                  let address = UnsafeMutableRawPointer(bitPattern: start) else { continue }
            _ = madvise(address, Int(end - start), MADV_RANDOM)
            _ = madvise(address, Int(end - start), MADV_DONTNEED)
        }
    }
}
