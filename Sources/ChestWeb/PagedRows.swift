/// The script the board and the results page share to page a table too long for the screen: rows are laid into
/// pages that fit the room, one page is shown, and the label says which teams it holds.
enum PagedRows {
    static let script = """
              // Lays `rows` into pages of at most `room` pixels, shows page `page` (modulo their number), says which
              // teams it holds in `label` (nothing when one page holds them all) and returns the page shown.
              function pageRows(rows, room, page, label, root) {
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
                label.textContent = pages.length > 1
                  ? "\\u00b7 teams " + first + "\\u2013" + (first + pages[page].length - 1) + " of " + rows.length : "";
                root.dataset.pages = String(pages.length);
                return page;
              }
        """
}
