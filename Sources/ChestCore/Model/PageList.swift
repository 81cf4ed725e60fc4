/// A message's pages: the first in line, the others in an array. Most messages have one page, and an array of one
/// was an allocation of its own for each of them, 112 bytes with the allocator's (docs/BENCHMARKS.md "Memory").
/// It behaves as the array it replaced.
package struct PageList: RandomAccessCollection, MutableCollection, RangeReplaceableCollection, Hashable, Sendable,
    ExpressibleByArrayLiteral
{
    /// The first page; nil only when there is none.
    private var head: Page?
    private var tail: [Page]

    package init() {
        head = nil
        tail = []
    }

    package init(_ pages: some Sequence<Page>) {
        var pages = pages.makeIterator()
        head = pages.next()
        tail = Array(IteratorSequence(pages))
    }

    package init(arrayLiteral pages: Page...) { self.init(pages) }

    package var startIndex: Int { 0 }
    package var endIndex: Int { head == nil ? 0 : 1 + tail.count }

    package subscript(position: Int) -> Page {
        get {
            guard position > 0 else { return head! }
            return tail[position - 1]
        }
        set {
            if position == 0 { head = newValue } else { tail[position - 1] = newValue }
        }
    }

    package mutating func replaceSubrange(_ range: Range<Int>, with pages: some Collection<Page>) {
        var all = Array(self)
        all.replaceSubrange(range, with: pages)
        self = PageList(all)
    }
}
