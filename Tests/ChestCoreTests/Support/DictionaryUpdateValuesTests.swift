import Testing

@testable import ChestCore

/// `Dictionary.updateValues`, the engine's way to change every sealed place's watch on a fix (docs/BENCHMARKS.md
/// "The fix path's CPU").
struct DictionaryUpdateValuesTests {
    /// The storage a dictionary refers to: a native dictionary is one reference to it.
    private static func storage(_ dictionary: [Int: [Int]]) -> UnsafeRawPointer {
        unsafeBitCast(dictionary, to: UnsafeRawPointer.self)
    }

    @Test func everyValueChangesWithItsKey() {
        var dictionary = Dictionary(uniqueKeysWithValues: (0..<500).map { ($0, [$0]) })
        dictionary.updateValues { key, value in value.append(key * 2) }
        #expect(dictionary.count == 500)
        #expect(dictionary.allSatisfy { key, value in value == [key, key * 2] })
    }

    /// The loop it replaced, `for index in values.indices { values[index] = … }`, copied the whole dictionary on
    /// every fix, because the indices hold the dictionary while it is written.
    @Test func theDictionaryIsChangedInPlaceNotCopied() {
        var dictionary = Dictionary(uniqueKeysWithValues: (0..<500).map { ($0, [$0]) })
        let before = Self.storage(dictionary)
        dictionary.updateValues { _, value in value[0] += 1 }
        #expect(Self.storage(dictionary) == before)

        var old = Dictionary(uniqueKeysWithValues: (0..<500).map { ($0, [$0]) })
        let oldStorage = Self.storage(old)
        for index in old.values.indices { old.values[index][0] += 1 }
        #expect(Self.storage(old) != oldStorage, "the old loop copies: the check can tell")
    }
}
