extension BoardAssets {
    /// The script's second part: the clock, the event stream and the polling that stands in for it.
    static let liveScript = """

          // docs/HUNTS.md "The hunt's start and end": the time to the start, then to the end in force, then the final
          // ranking; the schedule comes with the page and again with each change of it on the event stream.
          function span(milliseconds) {
            const total = Math.max(0, Math.ceil(milliseconds / 1000));
            const days = Math.floor(total / 86400), hours = Math.floor(total / 3600) % 24;
            const minutes = Math.floor(total / 60) % 60, seconds = total % 60;
            const two = function (n) { return String(n).padStart(2, "0"); };
            if (days > 0) { return days + " d " + hours + " h"; }
            return (hours > 0 ? hours + ":" + two(minutes) : String(minutes)) + ":" + two(seconds);
          }

          function tick() {
            const clock = document.getElementById("clock");
            const ranking = document.getElementById("ranking");
            if (!clock) { if (ranking) { ranking.textContent = "Leaderboard"; } root.dataset.phase = "open"; return; }
            const now = Date.now();
            const starts = clock.dataset.starts ? Date.parse(clock.dataset.starts) : null;
            const ends = clock.dataset.ends ? Date.parse(clock.dataset.ends) : null;
            let text, phase;
            if (starts !== null && now < starts) {
              phase = "before";
              text = "starts in " + span(starts - now) + " (" + clock.dataset.startsAt + ")";
            } else if (ends !== null && now >= ends) {
              phase = "ended";
              text = "final ranking \\u00b7 ended " + clock.dataset.endsAt;
            } else if (ends !== null) {
              phase = "open";
              text = "ends in " + span(ends - now) + " (" + clock.dataset.endsAt + ")";
            } else {
              phase = "open";
              text = "started " + clock.dataset.startsAt;
            }
            if (clock.textContent !== text) { clock.textContent = text; }
            clock.classList.toggle("soon", phase === "open" && ends !== null && ends - now < 10 * 60 * 1000);
            clock.classList.toggle("ended", phase === "ended");
            if (ranking) { ranking.textContent = phase === "ended" ? "Final ranking" : "Leaderboard"; }
            root.dataset.phase = phase;
            return phase;
          }
          window.chestBoardTick = tick;

          // docs/HUNTS.md "A map beneath": Leaflet draws the organiser's tiles under the drawing's frame.
        \(BoardTiles.script)
          function drawTiles() {
            const zoom = drawTilesUnder(document.getElementById("map"));
            if (zoom !== null) { root.dataset.tiles = String(zoom); }
          }

          function fit() {
            fitName();
            drawTiles();
            pageLeaderboard();
            fitList("latest");
            fitList("refused");
            const found = problems();
            root.dataset.viewport = window.innerWidth + "x" + window.innerHeight;
            root.dataset.layout = found.length === 0 ? "fits" : found.slice(0, 8).join("; ");
          }
          window.chestBoardFit = fit;

          tick();
          fit();
          window.addEventListener("load", fit);
          window.addEventListener("resize", fit);
          setInterval(function () {
            if (Number(root.dataset.pages || "1") > 1) { page += 1; fit(); }
          }, 8000);

          // docs/HUNTS.md "The hunt's start and end": at the end in force, the final ranking (the results view).
          setInterval(function () {
            if (tick() === "ended") { window.location.assign("/results?final"); }
          }, 1000);

          function show(sections) {
            for (const id of Object.keys(sections)) {
              const element = document.getElementById(id);
              if (element) { element.innerHTML = sections[id]; }
            }
            tick();
            fit();
          }

          function unreachable() {
            root.dataset.live = "no";
            const link = document.getElementById("link");
            if (link) { link.textContent = "the board is unreachable; retrying"; link.className = "link warn"; }
          }

          // docs/HUNTS.md "Slow and idle connections": when the board refuses the stream (it follows as many as it
          // can, or this address has its share), the page reads /board.json every few seconds instead; when its
          // ETag says the board changed, it takes its parts from a fresh copy of the page, made by the board as
          // the stream's are. It asks for the stream again every minute, and stops polling once it has one.
          const sectionIDs = [\(BoardPage.sectionIDs.map { "\"\($0)\"" }.joined(separator: ", "))];
          let polling = null, seen = null;
          function poll() {
            fetch("/board.json", { cache: "no-store" }).then(function (response) {
              if (!response.ok) { throw new Error("/board.json: " + response.status); }
              const tag = response.headers.get("ETag");
              if (tag !== null && tag === seen) { return; }
              return fetch("/", { cache: "no-store" }).then(function (page) {
                if (!page.ok) { throw new Error("/: " + page.status); }
                return page.text();
              }).then(function (html) {
                if (polling === null) { return; }
                const fresh = new DOMParser().parseFromString(html, "text/html");
                const sections = {};
                for (const id of sectionIDs) {
                  const part = fresh.getElementById(id);
                  if (part) { sections[id] = part.innerHTML; }
                }
                seen = tag;
                root.dataset.polled = String(Number(root.dataset.polled || "0") + 1);
                show(sections);
              });
            }).then(function () {
              if (polling !== null) { root.dataset.live = "polling"; }
            }, unreachable);
          }

          function follow() {
            const source = new EventSource("/events");
            source.addEventListener("sections", function (event) {
              if (polling !== null) { clearInterval(polling); polling = null; seen = null; }
              root.dataset.live = "yes";
              show(JSON.parse(event.data));
            });
            source.addEventListener("error", function () {
              // Closed for good (an answer other than the stream: 429 or 503) or retrying by itself.
              if (source.readyState !== EventSource.CLOSED) { unreachable(); return; }
              if (polling === null) {
                polling = setInterval(poll, 5000);
                poll();
              }
              setTimeout(follow, 60000);
            });
          }
          follow();
        })();

        """
}
