extension BoardAssets {
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
}
