extension Dictionary {
    /// Changes every value in place, with its key. `for index in values.indices { values[index] = … }` holds a copy of
    /// the dictionary for the whole loop (`DefaultIndices` keeps its collection), so that every write copied all of
    /// it: on a fix, each of 500 sealed places' watches copied the 500 (docs/BENCHMARKS.md "The fix path's CPU").
    mutating func updateValues(_ body: (Key, inout Value) -> Void) {
        var index = startIndex
        while index != endIndex {
            let key = keys[index]
            body(key, &values[index])
            formIndex(after: &index)
        }
    }
}
