import ChestCore
import ChestGPX
import ChestIO
import ChestSeal
import ChestSimulator
import FoundationEssentials
import Glibc

/// A quest file on disk (docs/QUEST.md): read with its page files and GPX waypoints next to it, and the IDs it was
/// last built with, recorded beside it in `QUEST.ids`.
struct QuestFile {
    /// As the user wrote it.
    let path: String
    let quest: Quest

    /// Reads and checks the quest; every fault names the file, the line and the field.
    /// A GPX of caches is read as the quest `chest quest from` writes of it, as `course` says (places of 30 m by
    /// default).
    init(_ path: String, timeZone: Zone = .current, course: CourseOptions = CourseOptions()) throws {
        self.path = path
        let directory = directoryName(path)
        func nearby(_ file: String) -> String { file.hasPrefix("/") ? file : directory + "/" + file }
        var gpxFiles: [String: GPX] = [:]
        var parser = QuestParser(
            timeZone: timeZone,
            pageText: { file in
                let path = nearby(file)
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw ChestError(
                        FileManager.default.fileExists(atPath: path)
                            ? "the file exists but cannot be read; check its permissions"
                            : "there is no such file next to the quest (\(path)); check the name after page: @")
                }
                guard let text = String(data: data, encoding: .utf8) else {
                    throw ChestError("the file is not UTF-8 text")
                }
                return text
            },
            waypoint: { file, name in
                let gpx = try gpxFiles[file] ?? Self.gpx(nearby(file), shown: file)
                gpxFiles[file] = gpx
                guard let waypoint = gpx.waypoint(named: name) else {
                    let names = gpx.waypoints.filter { !$0.name.isEmpty }.map { "\"\($0.name)\"" }.joined(
                        separator: ", ")
                    throw ChestError(
                        "no waypoint named \"\(name)\" in \(file)"
                            + (names.isEmpty ? " (it has none)" : " (it has \(names))"))
                }
                return waypoint.coordinate
            })
        parser.attachment = { file in
            let path = nearby(file)
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ChestError("there is no such file next to the quest (\(path)); check the name after attach:")
            }
            guard !isDirectory else { throw ChestError("a directory; attach: takes a file") }
            return path
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ChestError("cannot read the quest \(path): \(Self.whyUnreadable(path))")
        }
        let gpx = Self.isGPX(path, data: data)
        if !course.isEmpty && !gpx {
            throw ChestError(
                course.radius != nil
                    ? "--radius sets the places of a geocaching GPX; \(path) is a quest file, whose location locks give each place its radius"
                    : "\(course.written) sets the course of a geocaching GPX; \(path) is a quest file, whose order: and question: lines say it (docs/QUEST.md \"Order\")"
            )
        }
        let text =
            gpx ? try Self.geocacheQuest(data, path: path, course: course) : String(decoding: data, as: UTF8.self)
        do {
            quest = try parser.parse(text)
        } catch {
            // One "chest: FILE:LINE: FIELD: …" line a mistake.
            throw ChestError(error.lines(prefix: "\(path):").joined(separator: "\nchest: "))
        }
    }

    /// Why a file could not be read, in words (Foundation's own error says only "The operation could not be
    /// completed").
    static func whyUnreadable(_ path: String) -> String {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return "there is no such file; check the path"
        }
        if isDirectory { return "it is a directory, not a file" }
        if !FileManager.default.isReadableFile(atPath: path) { return "permission denied" }
        return "it could not be read"
    }

    /// A GPX file; a fault names the file and its line.
    static func gpx(_ path: String, shown: String) throws -> GPX {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ChestError("cannot read \(shown)")
        }
        do {
            return try GPX(data: data)
        } catch {
            throw ChestError("\(shown):\(error.line): \(error.reason)")
        }
    }

    /// Where the IDs of the last build are kept.
    var idsPath: String { path + ".ids" }

    /// A new ID for every message, or with `keep` the recorded one where there is one.
    func ids(keep: Bool) -> [String: MessageID] {
        let recorded = keep ? recordedIDs() : [:]
        return Dictionary(
            uniqueKeysWithValues: quest.messages.map {
                ($0.name, recorded[$0.name] ?? MessageID(bytes: Sealer.randomBytes(16)))
            })
    }

    /// `NAME ID` lines.
    func recordedIDs() -> [String: MessageID] {
        guard let text = try? String(contentsOfFile: idsPath, encoding: .utf8) else { return [:] }
        var ids: [String: MessageID] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let words = line.split(separator: " ")
            if words.count == 2, let id = MessageID(String(words[1])) { ids[String(words[0])] = id }
        }
        return ids
    }

    func record(_ ids: [String: MessageID]) throws {
        let lines = quest.messages.compactMap { message in ids[message.name].map { "\(message.name) \($0)" } }
        let text =
            "# The IDs chest compose --quest gave these messages; --keep-ids reuses them.\n"
            + lines.joined(separator: "\n") + "\n"
        do {
            try AtomicFile.write(Data(text.utf8), to: absolute(idsPath))
        } catch {
            throw ChestError("cannot write \(idsPath): \(error.errno)")
        }
    }
}

/// A path made absolute against the working directory.
func absolute(_ path: String) -> String {
    path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
}
