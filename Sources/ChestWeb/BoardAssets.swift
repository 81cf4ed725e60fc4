/// The page's style sheet and script, served by the board itself (`/board.css`, `/board.js`): nothing comes from
/// elsewhere, and the Content-Security-Policy forbids it. Type sized for a projector at 1920×1080; light and dark
/// follow the system (prefers-color-scheme).
enum BoardAssets {
    static let css = """
        :root { --bg: #fbfaf7; --fg: #1b1b1b; --muted: #5d5d5d; --line: #d8d4cc; --panel: #ffffff; --ok: #1e7b34;
          --bad: #b3261e; --warn: #9a6200; --sea: #eef3f6; --target: #1f5fa8; color-scheme: light dark; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #121417; --fg: #f1f1ee; --muted: #a9adb3; --line: #30343a; --panel: #1b1e22; --ok: #5fd07a;
            --bad: #ff7b72; --warn: #f0b54a; --sea: #17222b; --target: #7cb6ff; }
        }
        * { box-sizing: border-box; }
        html { font-size: clamp(15px, 1.25vw, 34px); }
        body { margin: 0; padding: 0.8rem 1.2rem; background: var(--bg); color: var(--fg);
          font-family: system-ui, "DejaVu Sans", sans-serif; line-height: 1.3; }
        header { display: flex; align-items: baseline; gap: 1.5rem; flex-wrap: wrap; border-bottom: 2px solid var(--line);
          padding-bottom: 0.4rem; }
        h1 { font-size: 2rem; margin: 0; }
        h2 { font-size: 1.05rem; margin: 0 0 0.4rem; text-transform: uppercase; letter-spacing: 0.06em; color: var(--muted); }
        .facts { margin: 0; color: var(--muted); }
        .facts span + span::before { content: " \\00b7  "; }
        .link.ok { color: var(--ok); } .link.warn { color: var(--warn); }
        main { display: grid; grid-template-columns: minmax(0, 1.15fr) minmax(0, 1fr); gap: 1.2rem; margin-top: 0.8rem; }
        section { background: var(--panel); border: 1px solid var(--line); border-radius: 0.4rem; padding: 0.6rem 0.8rem;
          margin-bottom: 0.8rem; }
        table { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
        th { text-align: left; font-size: 0.8rem; color: var(--muted); font-weight: 600; padding: 0.2rem 0.4rem; }
        td { padding: 0.25rem 0.4rem; border-top: 1px solid var(--line); font-size: 1.15rem; white-space: nowrap; }
        .feeds { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 0.8rem; }
        .feeds li { font-size: 0.9rem; }
        td.rank { font-weight: 700; width: 2.5rem; }
        td.team { font-weight: 700; font-size: 1.35rem; white-space: nowrap; }
        td.num { text-align: right; font-weight: 700; }
        tbody tr:first-child td { font-size: 1.5rem; }
        small { font-weight: 400; color: var(--muted); font-size: 0.75em; }
        .on { color: var(--ok); } .off, .never { color: var(--muted); } .bad { color: var(--bad); }
        .dot { width: 0.8em; height: 0.8em; margin-right: 0.4em; vertical-align: -0.05em; }
        ol { margin: 0; padding-left: 0; list-style: none; }
        li { padding: 0.15rem 0; border-top: 1px solid var(--line); overflow-wrap: anywhere; }
        li:first-child { border-top: none; }
        .none { color: var(--muted); margin: 0; }
        #map svg { width: 100%; height: auto; display: block; }
        .sea { fill: var(--sea); }
        .target { fill: var(--target); fill-opacity: 0.15; stroke: var(--target); stroke-width: 2; }
        .trail { fill: none; stroke-width: 3; stroke-linejoin: round; stroke-linecap: round; stroke-opacity: 0.8; }
        circle.team { stroke: var(--bg); stroke-width: 2; }
        .label { fill: var(--fg); font-size: 22px; font-family: system-ui, "DejaVu Sans", sans-serif; }
        .label.team { font-weight: 700; }
        .scale { fill: none; stroke: var(--fg); stroke-width: 2; }
        @media (max-width: 900px) { main, .feeds { grid-template-columns: 1fr; } }

        """

    /// Follows `/events`: each `sections` event replaces the parts it names. The HTML in it was made and escaped by
    /// the board, as for the first load; the browser's EventSource reconnects by itself, and the board sends the
    /// whole state first on every connection.
    static let javascript = """
        "use strict";
        (function () {
          const source = new EventSource("/events");
          source.addEventListener("sections", function (event) {
            const sections = JSON.parse(event.data);
            for (const id of Object.keys(sections)) {
              const element = document.getElementById(id);
              if (element) { element.innerHTML = sections[id]; }
            }
            document.documentElement.dataset.live = "yes";
          });
          source.addEventListener("error", function () {
            document.documentElement.dataset.live = "no";
            const link = document.getElementById("link");
            if (link) { link.textContent = "the board is unreachable; retrying"; link.className = "link warn"; }
          });
        })();

        """
}
