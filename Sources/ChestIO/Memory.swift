import Glibc

/// Hands freed heap pages back to the kernel after a burst of work (glibc's `malloc_trim(3)`, which Swift's Glibc
/// module does not import): ingesting thousands of files leaves megabytes of decoder garbage between live objects.
@_silgen_name("malloc_trim")
private func malloc_trim(_ pad: Int) -> Int32

/// The process's heap.
public enum Memory {
    /// Returns free heap pages to the kernel.
    public static func releaseFreePages() { _ = malloc_trim(0) }
}
