import ChestCore
import ChestIO
import FoundationEssentials

/// The page's lists: the latest pages credited, what waits to be judged, the organiser's words, the refusals.
extension BoardPage {
    static func latest(
        _ unlocks: [BoardSnapshot.Logged], questions: [PageLink: String] = [:], colours: [String: String],
        timeZone: Zone
    ) -> String {
        let items = unlocks.suffix(listed).reversed().compactMap { logged -> String? in
            if let line = scored(logged, colours: colours, timeZone: timeZone) { return line }
            guard case let .unlock(team, message, title, page, openedAt, trust, _, proof, reachedAt) = logged.event
            else { return nil }
            let reached =
                reachedAt.map { ", place reached \(Wording.reached($0, before: openedAt, in: timeZone))" } ?? ""
            let question = questions[PageLink(message: message, page: page)]
            let line =
                "\(team) opened \u{201C}\(title)\u{201D} page \(page)" + (question.map { " (\($0))" } ?? "")
                + ", \(proof), claimed trust \(trust.rawValue)\(reached)"
            let asked = question.map { #"<i class="question">\#(HTML.isolated($0))</i> "# } ?? ""
            let early =
                proof.hasSuffix("reached before the start")
                ? #"<span class="early warn">reached before the start</span>"# : ""
            // The team and the page stay whole; the title gives way, then what follows (docs/HUNTS.md "On a
            // projector").
            return """
                <li class="opened" title="\(HTML.escaped(line))"><span class="who">\(time(logged.at, timeZone)) \(dot(colours[team]))<b>\(HTML.escaped(team))</b> opened</span>\
                <span class="title">\u{201C}\(HTML.isolated(title))\u{201D}</span><span class="page">page \(page)</span>\(early)\
                <span class="rest">\(asked)<small>\(HTML.escaped(proof)), claimed \(HTML.escaped(trust.rawValue))\(HTML.escaped(reached))</small></span></li>
                """
        }
        return items.isEmpty ? #"<p class="none">No page credited yet.</p>"# : "<ol>\(items.joined())</ol>"
    }

    /// A hint given, an adjustment or a team's question, as the latest events show it; nil for another event.
    static func scored(_ logged: BoardSnapshot.Logged, colours: [String: String], timeZone: Zone) -> String? {
        switch logged.event {
        case let .hint(team, message, page, hint, cost, charged, _):
            let what = "was given hint \(hint) of \(message.prefix(8)) page \(page)"
            let price =
                !charged ? "again, not charged twice" : cost == 0 ? "free" : "\(cost) point\(cost == 1 ? "" : "s")"
            return
                "<li>\(time(logged.at, timeZone)) \(dot(colours[team]))<b>\(HTML.escaped(team))</b> \(HTML.escaped(what)) "
                + "<small>\(HTML.escaped(price))</small></li>"
        case let .adjusted(team, points, reason, _):
            let sign = points > 0 ? "+" : "\u{2212}"
            return
                "<li>\(time(logged.at, timeZone)) \(dot(colours[team]))<b>\(HTML.escaped(team))</b> \(sign)\(abs(points)) "
                + "point\(abs(points) == 1 ? "" : "s"): \(HTML.isolated(reason))</li>"
        case let .judged(team, message, page, accepted, points, reason, _):
            // docs/HUNTS.md "Missions".
            let verdict = accepted ? "accepted: \(points) point\(points == 1 ? "" : "s")" : "rejected"
            return
                #"<li class="judged">\#(time(logged.at, timeZone)) \#(dot(colours[team]))<b>\#(HTML.escaped(team))</b> "#
                + "mission \(HTML.escaped(message.short)) page \(page) \(verdict)"
                + (reason.isEmpty ? "" : ": \(HTML.isolated(reason))") + "</li>"
        case let .asked(team, text, _, _):
            // docs/HUNTS.md "A team's question, a word to one team".
            return
                #"<li class="asked" title="\#(HTML.escaped(team + " asks: " + text))">\#(time(logged.at, timeZone)) "#
                + "\(dot(colours[team]))<b>\(HTML.escaped(team))</b> asks: \(HTML.isolated(text))</li>"
        default:
            return nil
        }
    }

    /// The submissions waiting to be judged, oldest first (docs/HUNTS.md "Missions"): the photo as the board serves
    /// it, or the text, with the command that judges it.
    static func judge(_ submissions: [BoardCore.HeardSubmission], colours: [String: String], timeZone: Zone)
        -> String
    {
        let waiting = submissions.filter { $0.state == .waiting }
        guard !waiting.isEmpty else { return #"<p class="none">Nothing to judge.</p>"# }
        let items = waiting.prefix(listed).map { submission in
            let what =
                submission.photoName.map {
                    #"<img src="\#(photoPath)\#($0)" alt="photo of \#(HTML.escaped(submission.team))" loading="lazy">"#
                } ?? #"<q>\#(HTML.isolated(submission.text ?? ""))</q>"#
            let command =
                "chest hunt judge \(submission.team) \(submission.message.short) \(submission.page) --accept | --reject REASON"
            return
                #"<li class="submission" data-team="\#(HTML.escaped(submission.team))" title="\#(HTML.escaped(command))">"#
                + "\(time(submission.at, timeZone)) \(dot(colours[submission.team]))<b>\(HTML.escaped(submission.team))</b> "
                + "mission \(HTML.escaped(submission.message.short)) page \(submission.page)<br>\(what)</li>"
        }
        return "<ol>\(items.joined())</ol>"
    }

    /// The organiser's latest words, newest first, above the pages credited (docs/HUNTS.md "Word to all teams").
    static func said(_ words: [HuntWord.Said], timeZone: Zone) -> String {
        guard !words.isEmpty else { return "" }
        let items = words.suffix(3).reversed().map { word in
            #"<li title="\#(HTML.escaped(word.text))">\#(time(word.at, timeZone)) <b>organiser</b> says: \#(HTML.isolated(word.text))</li>"#
        }
        return #"<ol class="said">\#(items.joined())</ol>"#
    }

    static func refused(_ snapshot: BoardSnapshot, timeZone: Zone) -> String {
        let items = snapshot.refusals.suffix(listed).reversed().compactMap { logged -> String? in
            guard case let .refused(reason, team, why) = logged.event else { return nil }
            let line = "\(reason)\(team.map { " from \($0)" } ?? ""): \(why)"
            return """
                <li title="\(HTML.escaped(line))">\(time(logged.at, timeZone)) <b class="bad">\(HTML.escaped(reason))</b>\
                \(team.map { " from <b>\(HTML.escaped($0))</b>" } ?? ""): \(HTML.isolated(why))</li>
                """
        }
        let counts = snapshot.ignored.filter { $0.value > 0 }.sorted { $0.key < $1.key }
        let ignored =
            counts.isEmpty
            ? ""
            : "<p class=\"facts\">Ignored by the gate: "
                + counts.map { "\($0.value) \(HTML.escaped($0.key))" }.joined(separator: ", ") + "</p>"
        return ignored + (items.isEmpty ? #"<p class="none">Nothing refused.</p>"# : "<ol>\(items.joined())</ol>")
    }
}
