import FoundationEssentials

/// The names `waypoint:` gives the pages, and a Lab project's name said once.
extension GeocacheCourse {
    /// How many characters of a name GPS receivers show: the names `waypoint:` keeps differ in them.
    static let distinctNameLength = 14

    /// Each stage's name as the file gives it (its code; a Lab stage's without the project's name its stages all
    /// repeat), made to differ from the others' in their first 14 characters where they did not, by a number in place
    /// of its end ("Stage of the o~2").
    static func name(_ stages: inout [Stage]) {
        var names = stages.map {
            GeocacheText.truncated(GeocacheText.oneLine($0.waypoint.code), to: QuestWaypoint.maximumNameLength)
        }
        let labs = stages.indices.filter { stages[$0].waypoint.isLabStage && stages[$0].waypoint.additionalType == nil }
        if let project = withoutProject(labs.map { names[$0] }) {
            for (index, name) in zip(labs, project.names) { names[index] = name }
        }
        var taken: Set<String> = []
        for index in names.indices {
            var name = names[index].isEmpty ? "\(index + 1)" : names[index]
            var number = 1
            while !taken.insert(String(name.prefix(distinctNameLength))).inserted {
                number += 1
                let mark = "~\(number)"
                name = String(names[index].prefix(distinctNameLength - mark.count)) + mark
            }
            stages[index].name = name
        }
    }

    /// The separators between a Lab project's name and its stage's in a stage's name.
    static let projectSeparators = [" / ", " - ", " – ", " | ", ": ", "_"]

    /// The project name that the names of a Lab's stages (two or more) all share before or after their own, at a
    /// separator ("Starý Prostějov - Wichterle a Kovářík a.s. (WIKOV) / První Wichterlova továrna - WI", or
    /// "01_Munich Olympic Walk Of Stars_Updated-Project MUNICH2014"), and each name without it; nil when they share
    /// none or one would be left empty.
    static func withoutProject(_ names: [String]) -> (project: String, names: [String])? {
        guard names.count >= 2 else { return nil }
        let characters = names.map(Array.init)
        var prefix = characters[0].count
        var suffix = characters[0].count
        for name in characters.dropFirst() {
            prefix = min(prefix, zip(characters[0], name).prefix { $0 == $1 }.count)
            suffix = min(suffix, zip(characters[0].reversed(), name.reversed()).prefix { $0 == $1 }.count)
        }
        func result(_ project: String, _ cut: (([Character]) -> String)) -> (project: String, names: [String])? {
            let rests = characters.map { cut($0).trimmingSpaces() }
            let project = project.trimmingSpaces()
            guard !project.isEmpty, rests.allSatisfy({ !$0.isEmpty }) else { return nil }
            return (project, rests)
        }
        let shared = String(characters[0].prefix(prefix))
        if let end = projectSeparators.flatMap({ shared.ranges(of: $0) }).max(by: { $0.upperBound < $1.upperBound }),
            let found = result(
                String(shared[..<end.lowerBound]),
                {
                    String($0.dropFirst(shared[..<end.upperBound].count))
                })
        {
            return found
        }
        let ending = String(characters[0].suffix(suffix))
        if let start = projectSeparators.flatMap({ ending.ranges(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound }) {
            let dropped = ending[start.lowerBound...].count
            return result(String(ending[start.upperBound...]), { String($0.dropLast(dropped)) })
        }
        return nil
    }
}
