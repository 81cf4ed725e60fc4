/// Place labels on the wire (docs/FORMAT.md "Place labels"): `label` on a location lock whose point is in the
/// clear. Absent when there is none, so every file without labels signs and reads as before.
extension WirePage {
    /// A set's locks on the wire, its place labelled.
    static func locks(_ page: Page, _ set: LockSetName, version: Int) -> [WireLock] {
        page[set].map { lock in
            var wire = WireLock(lock, version: version)
            if case .location = lock { wire.label = page.labels[set] }
            return wire
        }
    }

    /// The labels of a decoded page, checked: only on a location in the clear, and readable.
    func labels(_ page: Page, number: Int) throws(MessageFormatError) -> [LockSetName: String] {
        var labels: [LockSetName: String] = [:]
        for (set, wire, locks) in [(LockSetName.a, a ?? [], page.setA), (.b, b ?? [], page.setB)] {
            for (wireLock, lock) in zip(wire, locks) {
                guard let label = wireLock.label else { continue }
                guard case .location = lock else {
                    throw .invalidField(
                        "pages[\(number)].\(set.rawValue.lowercased()).label",
                        "only a location whose point is in the clear carries a label; a sealed place's name would tell where it is"
                    )
                }
                if let problem = Page.labelProblem(label) {
                    throw .invalidField("pages[\(number)].\(set.rawValue.lowercased()).label", problem)
                }
                labels[set] = label
            }
        }
        return labels
    }
}
