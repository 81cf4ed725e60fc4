import ChestSimulator
import Foundation

/// Edits an NMEA log sentence by sentence, fixing each checksum: how the tests make a receiver that reports no
/// epv, a poor one, a simulated fix or a frozen sky out of an `NMEAWalk` log.
package enum NMEARewriter {
    /// Applies `transform` to the body of every sentence (between `$` and `*`); `nil` drops the sentence.
    package static func rewrite(_ log: String, _ transform: (String) -> String?) -> String {
        var lines: [String] = []
        for line in log.components(separatedBy: "\r\n") {
            guard line.hasPrefix("$"), let star = line.firstIndex(of: "*") else {
                lines.append(line)
                continue
            }
            guard let body = transform(String(line[line.index(after: line.startIndex)..<star])) else { continue }
            lines.append(NMEA.sentence(body))
        }
        return lines.joined(separator: "\r\n")
    }

    /// The walk without GSA sentences: gpsd then reports no DOPs, so no epv at all.
    package static func withoutVerticalError(_ log: String) -> String {
        rewrite(log) { $0.hasPrefix("GPGSA") ? nil : $0 }
    }

    /// The walk with this VDOP in every GSA: gpsd 3.22 reports epv as 23 m per unit of VDOP.
    package static func withVDOP(_ vdop: Double, _ log: String) -> String {
        rewrite(log) { body in
            guard body.hasPrefix("GPGSA,A,3") else { return body }
            var fields = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            fields[fields.count - 1] = String(format: "%.1f", vdop)
            return fields.joined(separator: ",")
        }
    }

    /// The walk with every satellite's signal strength held at `strength(prn)`: a frozen (or, with one value
    /// for all, a uniform) sky, as a simulator without path loss sends.
    package static func withFixedSignals(_ log: String, _ strength: @escaping (Int) -> Int) -> String {
        rewrite(log) { body in
            guard body.hasPrefix("GPGSV") else { return body }
            var fields = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            for snr in stride(from: 7, to: fields.count, by: 4) where !fields[snr].isEmpty {
                fields[snr] = NMEA.padded(strength(Int(fields[snr - 3]) ?? 0), width: 2)
            }
            return fields.joined(separator: ",")
        }
    }
}
