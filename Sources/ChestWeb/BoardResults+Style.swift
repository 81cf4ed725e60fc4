extension BoardResults {
    /// Light and dark follow the system on a screen; on paper (A4 or Letter: the page's size is the printer's)
    /// every team, black on white, the ranking's head on each sheet (docs/HUNTS.md "Results").
    static let css = """
        :root { --bg: #ffffff; --fg: #1b1b1b; --muted: #5d5d5d; --line: #d8d4cc; --sea: #eef3f6; --target: #1f5fa8;
          color-scheme: light dark; }
        @media screen and (prefers-color-scheme: dark) {
          :root { --bg: #121417; --fg: #f1f1ee; --muted: #a9adb3; --line: #30343a; --sea: #17222b; --target: #7cb6ff; }
        }
        * { box-sizing: border-box; }
        body { margin: 1.5rem 2rem; font-family: system-ui, "DejaVu Sans", sans-serif; color: var(--fg); background: var(--bg); }
        .head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 1.5rem; margin: 0 0 1rem; }
        h1 { font-size: 2rem; margin: 0; } h2 { font-size: 1rem; margin: 0 0 0.3rem; color: var(--muted);
          text-transform: uppercase; letter-spacing: 0.06em; } h3 { margin: 0 0 0.3rem; }
        #paging { text-transform: none; letter-spacing: 0; font-weight: 400; }
        .when { margin: 0; font-size: 1.2rem; color: var(--muted); }
        table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
        th, td { padding: 0.3rem 0.5rem; border-bottom: 1px solid var(--line); text-align: left; }
        th { font-size: 0.8rem; color: var(--muted); } .num { text-align: right; white-space: nowrap; }
        td.rank, td.team, td.score { font-weight: 700; }
        td.team { font-size: 1.2rem; overflow-wrap: anywhere; }
        .dot { width: 0.8em; height: 0.8em; margin-right: 0.35em; vertical-align: -0.05em; }
        .dot circle { stroke: var(--fg); stroke-opacity: 0.35; stroke-width: 1; }
        .note { color: var(--muted); } small { color: var(--muted); }
        figure { margin: 1rem 0; } figure svg { width: 100%; max-width: 60rem; height: auto; border: 1px solid var(--line); }
        .sea { fill: var(--sea); } .target { fill: var(--target); fill-opacity: 0.15; stroke: var(--target); stroke-width: 2; }
        .trail { fill: none; stroke-width: 3; stroke-linejoin: round; stroke-opacity: 0.8; }
        circle.team { stroke: var(--bg); stroke-width: 2; } .opened { stroke: var(--fg); stroke-width: 1; }
        .label { fill: var(--fg); font-size: 22px; font-family: system-ui, "DejaVu Sans", sans-serif; } .label.team { font-weight: 700; }
        .label.far { fill: var(--muted); font-style: italic; } .scale { fill: none; stroke: var(--fg); stroke-width: 2; }
        .leader { stroke: var(--fg); stroke-opacity: 0.6; stroke-width: 1.5; }
        .photos { min-height: 0; overflow-y: auto; display: flex; flex-wrap: wrap; align-content: flex-start; gap: 0.6rem; }
        .photos h2 { flex: 0 0 100%; } .photos figure { margin: 0; width: 14rem; }
        .photos img { display: block; width: 100%; height: 10rem; object-fit: cover; border: 1px solid var(--line); }
        .photos figcaption { font-size: 0.85rem; }
        .teams { columns: 2 24rem; } .teams section { break-inside: avoid; margin-bottom: 1rem; }
        ol { margin: 0; padding-left: 1.2rem; }
        [hidden] { display: none !important; }
        /* The organiser's tiles beneath the map, as on the board (docs/HUNTS.md "A map beneath"). */
        \(BoardTiles.css)        /* On a projector (served): the screen, never scrolled; the ranking pages by itself (/results.js). */
        @media screen {
          html { font-size: clamp(12px, min(1.25vw, 2.2vh), 34px); }
          body.served { height: 100vh; margin: 0; padding: 0.6rem 1rem; overflow: hidden; display: flex; flex-direction: column; }
          body.served .head { flex: none; border-bottom: 2px solid var(--line); padding-bottom: 0.3rem; margin-bottom: 0.6rem; }
          body.served .main { flex: 1 1 0; min-height: 0; display: grid; grid-template-columns: minmax(0, 1.5fr) minmax(0, 1fr);
            grid-template-rows: minmax(0, 1fr); gap: 1rem; }
          body.served .ranking { display: flex; flex-direction: column; min-height: 0; }
          body.served .fill { flex: 1 1 0; min-height: 0; overflow: hidden; }
          body.served table { font-size: calc(var(--scale, 1) * 1rem); }
          body.served td { white-space: nowrap; } body.served td.team { font-size: 1.3em; }
          body.served td.score { font-size: 1.5em; } body.served th { font-size: 0.8em; }
          body.served figure { margin: 0; min-height: 0; } body.served figure svg { height: 100%; max-width: none; }
          body.served figure .tiled { height: 100%; } body.served figure .over svg { width: 100%; display: block; border: none; }
          body.served .teams { display: none; }
        }
        @media print {
          @page { margin: 12mm; }
          body { margin: 0; font-size: 10.5pt; }
          h1 { font-size: 18pt; } .when { font-size: 12pt; }
          /* Whatever the screen's script hid or shrank (a headless print may skip beforeprint). */
          tr[hidden] { display: table-row !important; } #ranking th, #ranking td { display: table-cell !important; }
          #ranking table { font-size: 10.5pt !important; } #paging { display: none; }
          thead { display: table-header-group; } tr { break-inside: avoid; }
          td.team { font-size: 11pt; }
          figure { break-inside: avoid; } figure svg { max-height: 120mm; }
          .teams { columns: 2; }
        }

        """

    /// `/results.js`: on a screen, the ranking's teams that fit, a page of them every 8 s; when the board turned
    /// here at the end and the organiser then moves the end later, back to the board (docs/HUNTS.md "Results").
    /// Like the board's, it says in `data-layout` whether a team's row runs out of the screen.
    static let javascript = """
        "use strict";
        (function () {
          const root = document.documentElement;
          let page = 0;
        \(PagedRows.script)
        \(BoardTiles.script)
          // docs/HUNTS.md "The ceremony": with ?reveal=N only the last N places show, the next one on a key press.
          let revealed = document.body.dataset.reveal === undefined ? null : Number(document.body.dataset.reveal);

          function fit() {
            const box = document.getElementById("ranking");
            const table = box && box.querySelector("table");
            const label = document.getElementById("paging");
            if (!table || !table.tBodies[0]) { return; }
            const all = Array.from(table.tBodies[0].rows);
            const rows = revealed === null ? all : all.slice(Math.max(all.length - revealed, 0));
            all.forEach(function (row) { row.hidden = rows.indexOf(row) < 0; });
            const zoom = drawTilesUnder(document.getElementById("results-map"));
            if (zoom !== null) { root.dataset.tiles = String(zoom); }
            // Every team's row whole across (a 32-character name): first without the hints taken, the distance
            // walked, the time from first to last page and the pages, in that order, then in smaller type.
            const optional = [6, 5, 4, 3];
            function show(dropped) {
              for (const row of table.rows) {
                Array.from(row.cells).forEach(function (cell, index) { cell.style.display = dropped.indexOf(index) >= 0 ? "none" : ""; });
              }
            }
            fitting: for (const scale of [1, 0.9, 0.8, 0.7, 0.6, 0.5]) {
              table.style.setProperty("--scale", String(scale));
              for (let count = 0; count <= optional.length; count += 1) {
                show(optional.slice(0, count));
                if (table.offsetWidth <= box.clientWidth) { root.dataset.scale = String(scale); break fitting; }
              }
            }
            root.dataset.viewport = window.innerWidth + "x" + window.innerHeight;
            root.dataset.background = getComputedStyle(document.body).backgroundColor;
            if (getComputedStyle(document.body).overflow !== "hidden") { root.dataset.pages = "1"; root.dataset.layout = "fits"; return; }
            // While revealing, the page holding the place revealed last: the top one.
            page = pageRows(rows, box.clientHeight - table.tHead.offsetHeight, revealed === null ? page : 0, label, root);
            const found = [];
            const bottom = Math.min(box.getBoundingClientRect().bottom, window.innerHeight);
            for (const row of rows) {
              if (row.hidden) { continue; }
              if (row.getBoundingClientRect().bottom > bottom + 1) { found.push("row " + row.dataset.team + " below the window"); }
              for (const cell of row.cells) {
                if (cell.scrollWidth > cell.clientWidth + 1) { found.push("cell of " + row.dataset.team + " cut"); }
              }
            }
            if (table.offsetWidth > box.clientWidth + 1) { found.push("the ranking runs out of its box sideways"); }
            const scroller = document.scrollingElement;
            if (scroller.scrollWidth > window.innerWidth + 1) { found.push("the page scrolls sideways"); }
            root.dataset.layout = found.length === 0 ? "fits" : found.slice(0, 8).join("; ");
          }

          if (revealed !== null) {
            document.addEventListener("keydown", function (event) {
              if ([" ", "ArrowRight", "Enter", "PageDown"].indexOf(event.key) < 0) { return; }
              event.preventDefault();
              const count = document.querySelectorAll("#ranking tbody tr").length;
              if (revealed >= count) { return; }
              revealed += 1;
              const address = new URL(window.location.href);
              address.searchParams.set("reveal", String(revealed));
              history.replaceState(null, "", address.toString());
              if (revealed >= count) {
                document.querySelectorAll("figure[hidden], .teams[hidden]").forEach(function (part) { part.hidden = false; });
              }
              root.dataset.revealed = String(revealed);
              fit();
            });
          }

          fit();
          window.addEventListener("load", fit);
          window.addEventListener("resize", fit);
          // On paper every team and every column, in the print style's type.
          window.addEventListener("beforeprint", function () {
            const table = document.querySelector("#ranking table");
            if (table) { table.style.removeProperty("--scale"); }
            Array.from(document.querySelectorAll("#ranking tr")).forEach(function (row) {
              row.hidden = false;
              Array.from(row.cells).forEach(function (cell) { cell.style.display = ""; });
            });
          });
          window.addEventListener("afterprint", fit);
          setInterval(function () {
            if (Number(root.dataset.pages || "1") > 1) { page += 1; fit(); }
          }, 8000);

          if (new URLSearchParams(window.location.search).has("final")) {
            setInterval(function () {
              fetch("/board.json", { cache: "no-store" }).then(function (response) { return response.json(); }).then(function (board) {
                if (!board.ends || Date.parse(board.ends) > Date.now()) { window.location.assign("/"); }
              }).catch(function () {});
            }, 5000);
          }
        })();

        """
}
