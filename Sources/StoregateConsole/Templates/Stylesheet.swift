/// The console's one stylesheet, served at /console/style.css (the pages allow no inline styles).
enum Stylesheet {
    static let text = """
        :root { color-scheme: light dark; --fg: #1d1d1f; --bg: #fbfbfd; --card: #fff; --line: #d2d2d7; --accent: #0066cc; --bad: #b00020; --ok: #1b7f3b; --muted: #57575c; }
        @media (prefers-color-scheme: dark) { :root { --fg: #f5f5f7; --bg: #111; --card: #1c1c1e; --line: #3a3a3c; --accent: #4da3ff; --bad: #ff6b6b; --ok: #5ad17a; --muted: #b4b4ba; } }
        * { box-sizing: border-box; }
        body { margin: 0; font: 15px/1.45 -apple-system, system-ui, sans-serif; color: var(--fg); background: var(--bg); }
        header.top { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; padding: .6rem 1rem; border-bottom: 1px solid var(--line); background: var(--card); }
        .brand { font-weight: 600; color: var(--fg); text-decoration: none; }
        .search { display: flex; gap: .4rem; flex: 1 1 18rem; }
        .search input { flex: 1; }
        nav { display: flex; flex-wrap: wrap; gap: .4rem .8rem; align-items: center; }
        main { padding: 1rem; max-width: 72rem; margin: 0 auto; }
        h1 { font-size: 1.5rem; margin: .5rem 0 1rem; } h2 { font-size: 1.15rem; margin-top: 2rem; }
        .card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: .8rem 1rem; margin: .6rem 0; }
        .narrow { max-width: 24rem; display: grid; gap: .4rem; }
        .row { display: flex; flex-wrap: wrap; gap: .4rem .6rem; align-items: center; }
        .inline { display: inline; }
        dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: .4rem 0; } dt { color: #86868b; } dd { margin: 0; }
        input, select, button { font: inherit; padding: .35rem .5rem; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); }
        button { background: var(--accent); color: #fff; border-color: var(--accent); cursor: pointer; }
        button:focus-visible, input:focus-visible, select:focus-visible, a:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
        a { color: var(--accent); }
        .scroll { overflow-x: auto; }
        table { border-collapse: collapse; width: 100%; background: var(--card); }
        th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
        .flash { border-left: 4px solid var(--ok); padding: .5rem .8rem; background: var(--card); }
        .error { border-left: 4px solid var(--bad); padding: .5rem .8rem; background: var(--card); color: var(--bad); }
        .error p { margin: 0; } .error details { margin-top: .4rem; color: var(--fg); font-size: .85em; } .error summary { cursor: pointer; }
        .hint, .meta { color: #86868b; }
        .standing { font-weight: 600; margin: .2rem 0; } .status-revoked, .status-expired, .status-billingRetry { color: var(--bad); }
        .charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: .8rem; }
        figure { margin: 0; } figcaption { margin-bottom: .3rem; }
        .chart { display: block; width: 100%; height: 5rem; } .chart .bars rect { fill: var(--accent); } .chart .axis { stroke: var(--line); vector-effect: non-scaling-stroke; }
        figcaption { display: flex; flex-wrap: wrap; gap: .2rem .5rem; align-items: baseline; } .chart-max { margin-left: auto; }
        .chart-axis { display: flex; justify-content: space-between; margin-top: .2rem; }
        .chart-max, .chart-axis { font-size: .85rem; color: var(--muted); font-variant-numeric: tabular-nums; }
        .timeline { padding-left: 1.2rem; } .timeline li { margin: .25rem 0; } .pager { display: flex; gap: 1.5rem; }
        .timeline details { display: inline; margin-left: .4rem; } .timeline summary { cursor: pointer; color: var(--accent); font-size: .85em; }
        .timeline details[open] { display: block; } .timeline .ids { font-size: .85em; margin: .2rem 0 .4rem; } time { color: #86868b; font-variant-numeric: tabular-nums; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
        .notes { padding-left: 1.2rem; } .note .text { white-space: pre-wrap; overflow-wrap: anywhere; margin: .2rem 0; } .note .meta { margin: 0; } textarea { width: 100%; box-sizing: border-box; font: inherit; }
        .danger h2 { color: #b3261e; } .danger .card { border-color: #b3261e; } .danger button { background: #b3261e; }
        code { font-size: .9em; }
        #audit .pair { display: inline-block; margin-right: .6rem; } #audit .detail code { overflow-wrap: anywhere; } #audit .when, #audit .actor, #audit .action { white-space: nowrap; }
        @media (max-width: 40rem) {
          #audit thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
          #audit tr, #audit td { display: block; } #audit tr { border-bottom: 1px solid var(--line); padding: .3rem 0; }
          #audit .actor { white-space: normal; overflow-wrap: anywhere; } #audit td { border: 0; padding: .1rem .6rem; } #audit td:empty { display: none; } #audit td[data-label]::before { content: attr(data-label) " "; color: var(--muted); }
        }
        """
}
