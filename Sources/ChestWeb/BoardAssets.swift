/// The page's style sheet and script, served by the board itself (`/board.css`, `/board.js`): nothing comes from
/// elsewhere, and the Content-Security-Policy forbids it. Made for a projector (1920×1080, 1280×720): the page fills
/// the screen and never scrolls; light and dark follow the system (prefers-color-scheme).
enum BoardAssets {

    /// Follows `/events`: each `sections` event replaces the parts it names. The HTML in it was made and escaped by
    /// the board, as for the first load; the browser's EventSource reconnects by itself, and the board sends the
    /// whole state first on every connection. After each change and resize it fits the page to the screen: the
    /// leaderboard shrinks to 70 % and then pages through its teams every 8 s, the lists keep the entries that fit;
    /// then it checks that nothing runs out of its card or off the screen, and says so in `data-layout` (what the
    /// tests read, and what an organiser can see in the browser's inspector).
    static let javascript = layoutScript + "\n" + liveScript

    /// The script's first part: fitting the page to the screen, and what does not fit.
    static let layoutScript = """
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
        """
}
