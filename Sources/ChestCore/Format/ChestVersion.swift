/// The version every executable reports.
///
/// A package's version (0.1~git20261129.039d9bd, docs/PACKAGING.md "The version") is known only when the package
/// is made, from the commit and its tags, so `make deb` writes it into the program it packages: into `slot`, a
/// string of fixed length the program holds once, after its marker (scripts/deb.sh). A program built from source
/// and not packaged keeps the slot blank and reports `source`, saying it is a development build.
package enum ChestVersion {
    /// The version of the source: the package's version starts with its first two numbers.
    package static let source = "0.1.0"

    /// What a package wrote into the slot; nil in a development build.
    package static let packaged: String? = read(slot)

    /// The version in receipts, exports and `--version`: the package's, else the source's.
    package static let string = packaged ?? source

    /// `--version`'s words after the program's name: "0.1~git20261129.039d9bd", or "0.1.0 (development build)".
    package static var described: String { packaged ?? "\(source) (development build)" }

    /// The marker, a colon and 64 spaces: scripts/deb.sh finds the marker in the program, once, and writes the
    /// version over the spaces after it, padded with spaces to the same length. No other string of the program may
    /// hold the marker.
    package static let slot: StaticString =
        "@chest-package-version:                                                                "

    /// The version in a slot's bytes: what follows its first colon, without the padding; nil when blank.
    /// Never inlined nor optimised: the optimiser knows the slot's bytes as the compiler wrote them and could
    /// fold them to "blank" before the package writes the version over them.
    @inline(never) @_optimize(none)
    package static func read(_ slot: StaticString) -> String? {
        let bytes = UnsafeBufferPointer(start: slot.utf8Start, count: slot.utf8CodeUnitCount)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let value = bytes[(colon + 1)...].prefix { $0 != UInt8(ascii: " ") && $0 != 0 }
        return value.isEmpty ? nil : String(decoding: value, as: UTF8.self)
    }
}
