/// The page's style sheet and script, served by the board itself (`/board.css`, `/board.js`): nothing comes from
/// elsewhere, and the Content-Security-Policy forbids it. Made for a projector (1920×1080, 1280×720): the page fills
/// the screen and never scrolls; light and dark follow the system (prefers-color-scheme).
enum BoardAssets {
    static let css = """
        :root { --bg: #fbfaf7; --fg: #1b1b1b; --muted: #5d5d5d; --line: #d8d4cc; --panel: #ffffff; --ok: #1e7b34;
          --bad: #b3261e; --warn: #9a6200; --sea: #eef3f6; --target: #1f5fa8; color-scheme: light dark; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #121417; --fg: #f1f1ee; --muted: #a9adb3; --line: #30343a; --panel: #1b1e22; --ok: #5fd07a;
            --bad: #ff7b72; --warn: #f0b54a; --sea: #17222b; --target: #7cb6ff; }
        }
        * { box-sizing: border-box; }
        [hidden] { display: none !important; }
        html { font-size: clamp(12px, min(1.25vw, 2.2vh), 34px); height: 100%; }
        body { margin: 0; height: 100vh; overflow: hidden; display: flex; flex-direction: column; gap: 0.6rem;
          padding: 0.6rem 1rem; background: var(--bg); color: var(--fg);
          font-family: system-ui, "DejaVu Sans", sans-serif; line-height: 1.3; }
        header { flex: none; display: flex; align-items: baseline; gap: 1.5rem; min-width: 0; white-space: nowrap;
          border-bottom: 2px solid var(--line); padding-bottom: 0.3rem; }
        /* A long name wraps to a second line and its type shrinks until it fits (the script); the link to the
           results never gives way (docs/HUNTS.md "On a projector"). */
        h1 { font-size: calc(var(--name, 1) * 2rem); line-height: 1.15; margin: 0; flex: 0 1 auto; max-width: 60%; min-width: 0;
          white-space: normal; overflow-wrap: anywhere; overflow: hidden; }
        h1.clamped { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2; }
        header .results { flex: none; margin: 0 0 0 auto; color: var(--muted); }
        header .results a { color: inherit; }
        h2 { flex: none; font-size: 1rem; margin: 0 0 0.3rem; text-transform: uppercase; letter-spacing: 0.06em;
          color: var(--muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
        #paging { text-transform: none; letter-spacing: 0; font-weight: 400; }
        .clock { flex: none; margin: 0; font-size: 1.5rem; font-weight: 700; font-variant-numeric: tabular-nums; }
        .clock.soon { color: var(--warn); } .clock.ended { color: var(--bad); }
        .facts { margin: 0; color: var(--muted); flex: 1 1 0; min-width: 0; overflow: hidden; text-overflow: ellipsis;
          white-space: nowrap; }
        .facts span + span::before { content: " \\00b7  "; }
        .facts a { color: inherit; }
        .link.ok, .on { color: var(--ok); } .link.warn, .warn { color: var(--warn); }
        .off, .never { color: var(--muted); } .bad { color: var(--bad); }
        /* The map gets the room it needs: about 800×500 pixels at 1920×1080 (docs/HUNTS.md "On a projector"). */
        main { flex: 1 1 0; min-height: 0; display: grid; grid-template-columns: minmax(0, 1.2fr) minmax(0, 1fr);
          grid-template-rows: minmax(0, 1fr); gap: 1rem; }
        aside { display: grid; grid-template-rows: minmax(0, 2.2fr) minmax(0, 1fr) minmax(0, 0.45fr); gap: 0.6rem;
          min-height: 0; }
        section { display: flex; flex-direction: column; min-height: 0; min-width: 0; overflow: hidden;
          background: var(--panel); border: 1px solid var(--line); border-radius: 0.4rem; padding: 0.5rem 0.7rem; }
        .fill { flex: 1 1 0; min-height: 0; overflow: hidden; }
        table { width: 100%; table-layout: fixed; border-collapse: collapse; font-variant-numeric: tabular-nums;
          font-size: calc(var(--scale, 1) * 1rem); }
        /* Until the script measures the cells (docs/HUNTS.md "On a projector"). */
        th.c-rank { width: 2.6em; } th.c-score { width: 5em; } th.c-pages { width: 4.6em; } th.c-reached { width: 5.6em; }
        th.c-trust { width: 10em; } th.c-now { width: 8.6em; } th.c-refused { width: 4.6em; }
        th, td { padding: 0.2em 0.35em; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; text-align: left; }
        th { font-size: 0.75em; color: var(--muted); font-weight: 600; }
        td { border-top: 1px solid var(--line); vertical-align: baseline; }
        td.rank { font-weight: 700; }
        td.team { font-weight: 700; font-size: 1.2em; }
        td.score { font-weight: 800; font-size: 1.6em; text-align: right; }
        th.score, th.num, td.num { text-align: right; }
        td.num { font-weight: 700; }
        td.trust, td.now { font-size: 0.78em; }
        /* The leader, once it has something credited. */
        tbody tr:first-child:not([data-pages="0"]) td.team { font-size: 1.35em; }
        tbody tr:first-child:not([data-pages="0"]) td.score { font-size: 1.9em; }
        tbody tr:first-child:not([data-pages="0"]) td.rank { font-size: 1.3em; }
        small { font-weight: 400; color: var(--muted); font-size: 0.8em; }
        .dot { width: 0.8em; height: 0.8em; margin-right: 0.35em; vertical-align: -0.05em; flex: none; }
        .dot circle { stroke: var(--fg); stroke-opacity: 0.35; stroke-width: 1; }
        ol { margin: 0; padding-left: 0; list-style: none; }
        li { font-size: 0.9rem; padding: 0.12rem 0; border-top: 1px solid var(--line); white-space: nowrap;
          overflow: hidden; text-overflow: ellipsis; }
        li:first-child { border-top: none; }
        /* A credited page: the team and the page stay whole; the title gives way first, then what follows. */
        li.opened { display: flex; column-gap: 0.3em; }
        li.opened > span { flex: none; white-space: nowrap; }
        li.opened > .title { flex: 0 1 auto; min-width: 2.5em; overflow: hidden; text-overflow: ellipsis; }
        li.opened > .rest { flex: 0 1000 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; }
        #refused .facts { font-size: 0.85rem; }
        /* A submission to judge (docs/HUNTS.md "Missions"): the photo fits the panel's width, a few lines high. */
        #judge { overflow-y: auto; }
        /* Only while something waits: the projector's layout is as it was the rest of the time. */
        section.judge:has(> #judge > p.none) { display: none; }
        #judge img { display: block; max-width: 100%; max-height: 10rem; object-fit: contain; }
        #judge q { white-space: pre-wrap; }
        .none { color: var(--muted); margin: 0; }
        #map svg { width: 100%; height: 100%; display: block; }
        /* The organiser's tiles beneath the drawing (docs/HUNTS.md "A map beneath"). */
        \(BoardTiles.css)        .leader { stroke: var(--fg); stroke-opacity: 0.6; stroke-width: 1.5; }
        .label.note { fill: var(--muted); }
        .sea { fill: var(--sea); }
        .target { fill: var(--target); fill-opacity: 0.15; stroke: var(--target); stroke-width: 2; }
        .trail { fill: none; stroke-width: 3; stroke-linejoin: round; stroke-linecap: round; stroke-opacity: 0.8; }
        circle.team { stroke: var(--bg); stroke-width: 2; }
        .label { fill: var(--fg); font-size: 22px; font-family: system-ui, "DejaVu Sans", sans-serif; }
        .label.team { font-weight: 700; }
        .label.far { fill: var(--muted); font-style: italic; }
        .scale { fill: none; stroke: var(--fg); stroke-width: 2; }

        """

    /// Follows `/events`: each `sections` event replaces the parts it names. The HTML in it was made and escaped by
    /// the board, as for the first load; the browser's EventSource reconnects by itself, and the board sends the
    /// whole state first on every connection. After each change and resize it fits the page to the screen: the
    /// leaderboard shrinks to 70 % and then pages through its teams every 8 s, the lists keep the entries that fit;
    /// then it checks that nothing runs out of its card or off the screen, and says so in `data-layout` (what the
    /// tests read, and what an organiser can see in the browser's inspector).
    static let javascript = """
        "use strict";
        (function () {
          const root = document.documentElement;
          let page = 0;
        \(PagedRows.script)

          // Columns dropped first when the names do not fit: says now, opened with, reached, refused, pages; and the
          // widths (in em of the table's type) past which a column is narrowed, its cells ending in an ellipsis.
          // The rank, the team's name and its points are never dropped nor cut (docs/HUNTS.md "On a projector").
          const optional = [6, 5, 4, 7, 3];
          const caps = { 3: 9, 5: 10, 6: 9 };

          // The width a cell's content takes on one line, with its padding.
          function need(cell) {
            const range = document.createRange();
            range.selectNodeContents(cell);
            const style = getComputedStyle(cell);
            return range.getBoundingClientRect().width + parseFloat(style.paddingLeft) + parseFloat(style.paddingRight) + 2;
          }

          function showColumns(table, dropped) {
            for (const row of table.rows) {
              Array.from(row.cells).forEach(function (cell, index) { cell.style.display = dropped.has(index) ? "none" : ""; });
            }
          }

          // Measures every cell at the table's own size; at that size drops and narrows the other columns, least
          // important first, until every name and score fits across, and only then makes the type smaller; with
          // room to spare below, larger type (up to 1.6) with the same columns; when the rows do not fit down at
          // 0.7, pages them at the largest type of at most 0.8 that fits across.
          function pageLeaderboard() {
            const box = document.getElementById("leaderboard");
            const table = box && box.querySelector("table");
            const label = document.getElementById("paging");
            if (!table || !table.tBodies[0] || !table.tHead) { return; }
            const rows = Array.from(table.tBodies[0].rows);
            const heads = Array.from(table.tHead.rows[0].cells);
            rows.forEach(function (row) { row.hidden = false; });
            table.style.setProperty("--scale", "1");
            showColumns(table, new Set());
            heads.forEach(function (head) { head.style.width = ""; });
            const needs = heads.map(function (head, index) {
              let widest = need(head);
              for (const row of rows) { if (row.cells[index]) { widest = Math.max(widest, need(row.cells[index])); } }
              return widest;
            });
            const em = parseFloat(getComputedStyle(table).fontSize);
            const room = box.clientWidth - 1;
            function widths(scale, dropped) {
              const width = needs.map(function (needed, index) {
                if (dropped.has(index) || index === 1) { return 0; }
                return Math.min(needed, caps[index] ? caps[index] * em : Infinity) * scale;
              });
              width[1] = room - width.reduce(function (a, b) { return a + b; }, 0);
              return width[1] >= needs[1] * scale ? width : null;
            }
            function apply(scale, dropped, width) {
              table.style.setProperty("--scale", String(scale));
              showColumns(table, dropped);
              heads.forEach(function (head, index) { head.style.width = dropped.has(index) ? "" : width[index] + "px"; });
            }
            const tries = [];
            for (const scale of [1, 0.9, 0.8, 0.7]) {
              for (let count = 0; count <= optional.length; count += 1) { tries.push([scale, count]); }
            }
            for (const scale of [0.6, 0.5, 0.4, 0.3]) { tries.push([scale, optional.length]); }
            let paged = null, last = null;
            for (let [scale, count] of tries) {
              const dropped = new Set(optional.slice(0, count));
              const width = widths(scale, dropped);
              if (!width) { continue; }
              last = [scale, dropped, width];
              if (!paged && scale <= 0.8) { paged = last; }
              apply(scale, dropped, width);
              // Below 0.7 the type is for names that fit no other way, not for more rows: those page.
              if (scale >= 0.7 && table.offsetHeight <= box.clientHeight) {
                // Few teams: larger type, as long as the same columns fit across and the rows down.
                for (const larger of (scale === 1 ? [1.6, 1.4, 1.2] : [])) {
                  const wider = widths(larger, dropped);
                  if (!wider) { continue; }
                  apply(larger, dropped, wider);
                  if (table.offsetHeight <= box.clientHeight) { scale = larger; break; }
                  apply(1, dropped, width);
                }
                label.textContent = "";
                root.dataset.pages = "1";
                root.dataset.scale = String(scale);
                return;
              }
            }
            const chosen = paged || last;
            if (chosen) { apply(chosen[0], chosen[1], chosen[2]); root.dataset.scale = String(chosen[0]); }
            page = pageRows(rows, box.clientHeight - table.tHead.offsetHeight, page, label, root);
          }

          // The hunt's name on one line in type shrunk to 0.7 at most, else on two lines, shrunk to half if it must;
          // past that it ends in an ellipsis.
          function fitName() {
            const name = document.querySelector("header h1");
            if (!name) { return; }
            name.classList.remove("clamped");
            const tries = [[1, 1], [0.9, 1], [0.8, 1], [0.7, 1], [1, 2], [0.9, 2], [0.8, 2], [0.7, 2], [0.6, 2], [0.5, 2]];
            for (const [scale, lines] of tries) {
              name.style.setProperty("--name", String(scale));
              const size = parseFloat(getComputedStyle(name).fontSize);
              if (name.scrollHeight <= lines * 1.15 * size + 2 && name.scrollWidth <= name.clientWidth + 1) {
                root.dataset.name = String(scale);
                return;
              }
            }
            name.classList.add("clamped");
            root.dataset.name = "clamped";
          }

          // Keeps the entries (of every list in the card) that end inside it: the list ends on a whole line.
          function fitList(id) {
            const box = document.getElementById(id);
            if (!box) { return; }
            const items = Array.from(box.querySelectorAll("li"));
            items.forEach(function (item) { item.hidden = false; });
            const bottom = box.getBoundingClientRect().bottom;
            let shown = 0, full = false;
            for (const item of items) {
              full = full || item.getBoundingClientRect().bottom > bottom + 0.5;
              item.hidden = full;
              if (!item.hidden) { shown += 1; }
            }
            box.dataset.shown = String(shown);
          }

          function name(element) {
            return element.tagName.toLowerCase() + (element.id ? "#" + element.id : "")
              + (element.className && typeof element.className === "string" ? "." + element.className.split(" ").join(".") : "");
          }

          // What does not fit: the page scrolling, a card off the screen, anything out of its card, text cut without
          // an ellipsis. Inside a cell or line that ends in an ellipsis, shortening is meant.
          function problems() {
            const found = [];
            const width = window.innerWidth, height = window.innerHeight;
            const scroller = document.scrollingElement;
            if (scroller.scrollWidth > width + 1 || scroller.scrollHeight > height + 1) {
              found.push("the page scrolls (" + scroller.scrollWidth + "x" + scroller.scrollHeight + ")");
            }
            for (const card of document.querySelectorAll("header, section")) {
              const edge = card.getBoundingClientRect();
              if (edge.left < -1 || edge.top < -1 || edge.right > width + 1 || edge.bottom > height + 1) {
                found.push(name(card) + " runs off the screen");
              }
              for (const element of card.querySelectorAll("*")) {
                if (element.closest("svg") && element.tagName.toLowerCase() !== "svg") { continue; }
                // Leaflet lays tiles past its frame, which clips them.
                if (element.closest(".leaflet-container")) { continue; }
                if (element.getClientRects().length === 0) { continue; }
                const parent = element.parentElement;
                if (parent !== card && parent.closest("td, th, li, h1, h2, .facts") && card.contains(parent.closest("td, th, li, h1, h2, .facts"))) { continue; }
                const box = element.getBoundingClientRect();
                if (box.width === 0 && box.height === 0) { continue; }
                if (box.left < edge.left - 1 || box.right > edge.right + 1 || box.top < edge.top - 1 || box.bottom > edge.bottom + 1) {
                  found.push(name(element) + " out of " + name(card));
                }
                const style = getComputedStyle(element);
                if (style.display !== "inline" && element.scrollWidth > element.clientWidth + 1 && style.textOverflow !== "ellipsis"
                    && element.tagName.toLowerCase() !== "svg") {
                  found.push(name(element) + " cut");
                }
              }
            }
            // The link to the results and the hunt's whole name; in Latest, each line's team and page.
            const link = document.querySelector("header .results a");
            if (link) {
              const box = link.getBoundingClientRect();
              if (box.width === 0 || box.left < -1 || box.right > width + 1 || box.bottom > height + 1) {
                found.push("the results link is off the screen");
              }
            }
            if (root.dataset.name === "clamped") { found.push("the hunt's name cut"); }
            for (const item of document.querySelectorAll("#latest li.opened")) {
              if (item.hidden || item.getClientRects().length === 0) { continue; }
              const edge = item.getBoundingClientRect();
              for (const part of item.querySelectorAll(".who, .page, .early")) {
                const box = part.getBoundingClientRect();
                if (box.left < edge.left - 1 || box.right > edge.right + 1) { found.push("a Latest line's team or page cut"); break; }
              }
            }
            // A team's name or points cut, even with an ellipsis; a row shown below the window or its card.
            const board = document.getElementById("leaderboard");
            for (const cell of document.querySelectorAll("#leaderboard td.team, #leaderboard td.score")) {
              if (cell.getClientRects().length === 0) { continue; }
              const edge = cell.getBoundingClientRect();
              if (need(cell) - 2 > edge.width + 0.5) {
                found.push((cell.classList.contains("team") ? "name " : "points ") + cell.closest("tr").dataset.team + " cut");
              }
            }
            if (board) {
              const bottom = Math.min(board.getBoundingClientRect().bottom, height);
              for (const row of board.querySelectorAll("tr")) {
                if (row.getClientRects().length > 0 && row.getBoundingClientRect().bottom > bottom + 1) {
                  found.push("row " + (row.dataset.team || "head") + " below the window");
                }
              }
            }
            return found;
          }

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
