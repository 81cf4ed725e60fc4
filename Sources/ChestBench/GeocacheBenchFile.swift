/// A Pocket Query as geocaching.com writes one (GPX 1.0, groundspeak:cache 1.0): `caches` caches 100 m apart, each
/// with an HTML long description and `logsPerCache` logs, about 20 KB a cache with 20 logs (docs/BENCHMARKS.md
/// "Quests"). The tests read a small one; `chest-bench gpx` a large one.
package enum GeocacheBenchFile {
    package static func pocketQuery(caches: Int, logsPerCache: Int) -> String {
        var text = """
            <?xml version="1.0" encoding="utf-8"?>
            <gpx xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" version="1.0" creator="Groundspeak Pocket Query" \
            xmlns="http://www.topografix.com/GPX/1/0">
              <name>Bench Pocket Query</name>

            """
        let paragraph =
            "<p>The path climbs through the <b>beech wood</b> &amp; past the old quarry; look for the bench "
            + "with the view over the lake, then count the steps down to the spring.</p>\n"
        let log =
            "Found it after a lovely walk with the dog &amp; the kids. The container is in good shape, the log is "
            + "dry. Thanks for the cache and for showing us this place! TFTC from the bench team. "
        text.reserveCapacity(caches * (1_000 + 20 * paragraph.utf8.count + logsPerCache * (log.utf8.count * 3 + 300)))
        for index in 1...caches {
            let latitude = 47 + Double(index % 100) * 0.001
            let longitude = 8 + Double(index / 100) * 0.001
            text += """
                  <wpt lat="\(latitude)" lon="\(longitude)">
                    <time>2020-01-01T00:00:00Z</time>
                    <name>GCB\(index)</name>
                    <desc>Cache \(index) by Bench owner, Traditional Cache (2/2)</desc>
                    <urlname>Cache \(index)</urlname>
                    <sym>Geocache</sym>
                    <type>Geocache|Traditional Cache</type>
                    <groundspeak:cache id="\(index)" available="True" archived="False" xmlns:groundspeak="http://www.groundspeak.com/cache/1/0">
                      <groundspeak:name>Cache \(index)</groundspeak:name>
                      <groundspeak:placed_by>Bench owner</groundspeak:placed_by>
                      <groundspeak:owner id="1">Bench owner</groundspeak:owner>
                      <groundspeak:type>Traditional Cache</groundspeak:type>
                      <groundspeak:container>Small</groundspeak:container>
                      <groundspeak:short_description html="False">The \(index)th cache of the bench.</groundspeak:short_description>
                      <groundspeak:long_description html="True"><![CDATA[\(String(repeating: paragraph, count: 20))]]></groundspeak:long_description>
                      <groundspeak:encoded_hints>Hint \(index)</groundspeak:encoded_hints>
                      <groundspeak:logs>

                """
            for number in 0..<logsPerCache {
                text += """
                            <groundspeak:log id="\(index * 100 + number)">
                              <groundspeak:date>2021-01-01T00:00:00Z</groundspeak:date>
                              <groundspeak:type>Found it</groundspeak:type>
                              <groundspeak:finder id="\(number)">Finder \(number)</groundspeak:finder>
                              <groundspeak:text encoded="False">\(log)\(log)\(log)</groundspeak:text>
                            </groundspeak:log>

                    """
            }
            text += """
                      </groundspeak:logs>
                      <groundspeak:travelbugs />
                    </groundspeak:cache>
                  </wpt>

                """
        }
        return text + "</gpx>\n"
    }
}
