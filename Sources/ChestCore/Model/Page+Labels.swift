extension Page {
    /// The longest place label, in Unicode scalars.
    package static let maximumLabelLength = 100

    /// Why a place label cannot be kept, or nil: one to 100 characters, none of them a control character (a label
    /// is shown on terminals, in GPX and in maps).
    package static func labelProblem(_ label: String) -> String? {
        if label.trimmingSpaces().isEmpty { return "the place's name is empty; write ,visible=NAME or just ,visible" }
        if label.unicodeScalars.count > maximumLabelLength {
            return "the place's name has \(label.unicodeScalars.count) characters, over \(maximumLabelLength)"
        }
        if label.unicodeScalars.contains(where: {
            $0.properties.generalCategory == .control || $0.properties.generalCategory == .format
        }) {
            return "the place's name holds a control character; write it on one line of plain text"
        }
        return nil
    }

    /// The labels `,visible=NAME` specs (or a quest's waypoints) give each set.
    package static func labels(setA: [LockSpec], setB: [LockSpec]) -> [LockSetName: String] {
        var labels: [LockSetName: String] = [:]
        for (set, specs) in [(LockSetName.a, setA), (.b, setB)] {
            for case let .visible(_, label?) in specs { labels[set] = label }
        }
        return labels
    }
}
