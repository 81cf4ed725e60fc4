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
        html { font-size: clamp(12px, min(1.25vw, 2.2vh), 34px); height: 100%; }
        body { margin: 0; height: 100vh; overflow: hidden; display: flex; flex-direction: column; gap: 0.6rem;
          padding: 0.6rem 1rem; background: var(--bg); color: var(--fg);
          font-family: system-ui, "DejaVu Sans", sans-serif; line-height: 1.3; }
        header { flex: none; display: flex; align-items: baseline; gap: 1.5rem; min-width: 0; white-space: nowrap;
          border-bottom: 2px solid var(--line); padding-bottom: 0.3rem; }
        h1 { font-size: 2rem; margin: 0; flex: 0 1 auto; max-width: 60%; min-width: 0; overflow: hidden; text-overflow: ellipsis; }
        h2 { flex: none; font-size: 1rem; margin: 0 0 0.3rem; text-transform: uppercase; letter-spacing: 0.06em;
          color: var(--muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
        #paging { text-transform: none; letter-spacing: 0; font-weight: 400; }
        .facts { margin: 0; color: var(--muted); flex: 1 1 0; min-width: 0; overflow: hidden; text-overflow: ellipsis;
          white-space: nowrap; }
        .facts span + span::before { content: " \\00b7  "; }
        .facts a { color: inherit; }
        .link.ok, .on { color: var(--ok); } .link.warn, .warn { color: var(--warn); }
        .off, .never { color: var(--muted); } .bad { color: var(--bad); }
        main { flex: 1 1 0; min-height: 0; display: grid; grid-template-columns: minmax(0, 1.5fr) minmax(0, 1fr);
          grid-template-rows: minmax(0, 1fr); gap: 1rem; }
        aside { display: grid; grid-template-rows: minmax(0, 1.3fr) minmax(0, 1fr) minmax(0, 0.6fr); gap: 0.6rem;
          min-height: 0; }
        section { display: flex; flex-direction: column; min-height: 0; min-width: 0; overflow: hidden;
          background: var(--panel); border: 1px solid var(--line); border-radius: 0.4rem; padding: 0.5rem 0.7rem; }
        .fill { flex: 1 1 0; min-height: 0; overflow: hidden; }
        table { width: 100%; table-layout: fixed; border-collapse: collapse; font-variant-numeric: tabular-nums;
          font-size: calc(var(--scale, 1) * 1rem); }
        col.c-rank { width: 2.6em; } col.c-score { width: 3.6em; } col.c-pages { width: 4.6em; } col.c-reached { width: 5.6em; }
        col.c-trust { width: 10em; } col.c-now { width: 8.6em; } col.c-refused { width: 4.6em; }
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
        #refused .facts { font-size: 0.85rem; }
        .none { color: var(--muted); margin: 0; }
        #map svg { width: 100%; height: 100%; display: block; }
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

          function pageLeaderboard() {
            const box = document.getElementById("leaderboard");
            const table = box && box.querySelector("table");
            const label = document.getElementById("paging");
            if (!table || !table.tBodies[0]) { return; }
            const rows = Array.from(table.tBodies[0].rows);
            rows.forEach(function (row) { row.hidden = false; });
            for (const scale of [1, 0.9, 0.8, 0.7]) {
              table.style.setProperty("--scale", String(scale));
              if (table.offsetHeight <= box.clientHeight) { label.textContent = ""; root.dataset.pages = "1"; return; }
            }
            const room = box.clientHeight - table.tHead.offsetHeight;
            const pages = [[]];
            let used = 0;
            for (const row of rows) {
              const height = row.offsetHeight;
              if (used + height > room && pages[pages.length - 1].length > 0) { pages.push([]); used = 0; }
              pages[pages.length - 1].push(row);
              used += height;
            }
            page = page % pages.length;
            pages.forEach(function (rowsOfPage, index) {
              rowsOfPage.forEach(function (row) { row.hidden = index !== page; });
            });
            const first = rows.indexOf(pages[page][0]) + 1;
            label.textContent = "\\u00b7 teams " + first + "\\u2013" + (first + pages[page].length - 1) + " of " + rows.length;
            root.dataset.pages = String(pages.length);
          }

          function fitList(id) {
            const box = document.getElementById(id);
            const list = box && box.querySelector("ol");
            if (!list) { return; }
            const items = Array.from(list.children);
            items.forEach(function (item) { item.hidden = false; });
            const bottom = box.getBoundingClientRect().bottom;
            let shown = 0;
            for (const item of items) {
              item.hidden = item.getBoundingClientRect().bottom > bottom + 0.5;
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
            return found;
          }

          function fit() {
            pageLeaderboard();
            fitList("latest");
            fitList("refused");
            const found = problems();
            root.dataset.viewport = window.innerWidth + "x" + window.innerHeight;
            root.dataset.layout = found.length === 0 ? "fits" : found.slice(0, 8).join("; ");
          }
          window.chestBoardFit = fit;

          fit();
          window.addEventListener("load", fit);
          window.addEventListener("resize", fit);
          setInterval(function () {
            if (Number(root.dataset.pages || "1") > 1) { page += 1; fit(); }
          }, 8000);

          // docs/HUNTS.md "The hunt's start and end": at the end, the final ranking (the results view).
          setInterval(function () {
            const title = document.querySelector("#summary h1[data-ends]");
            if (title && Date.now() >= Date.parse(title.dataset.ends)) { window.location.assign("/results"); }
          }, 1000);

          const source = new EventSource("/events");
          source.addEventListener("sections", function (event) {
            const sections = JSON.parse(event.data);
            for (const id of Object.keys(sections)) {
              const element = document.getElementById(id);
              if (element) { element.innerHTML = sections[id]; }
            }
            root.dataset.live = "yes";
            fit();
          });
          source.addEventListener("error", function () {
            root.dataset.live = "no";
            const link = document.getElementById("link");
            if (link) { link.textContent = "the board is unreachable; retrying"; link.className = "link warn"; }
          });
        })();

        """
}
