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
}
