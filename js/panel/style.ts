// The panel's stylesheet. Every colour, the font and the radius come from CSS custom properties
// (--nc-panel-*) with light defaults, so a host themes it from outside the shadow root; parts
// (::part(card), ...) reach single pieces.

export const PANEL_CSS = `
:host {
  --_bg: var(--nc-panel-bg, #ffffff);
  --_fg: var(--nc-panel-fg, #1d2129);
  --_muted: var(--nc-panel-muted, #5a6170);
  --_border: var(--nc-panel-border, #d0d5dd);
  --_surface: var(--nc-panel-surface, #f4f5f8);
  --_user: var(--nc-panel-user-bg, #e6edfc);
  --_accent: var(--nc-panel-accent, #2457c5);
  --_accent-fg: var(--nc-panel-accent-fg, #ffffff);
  --_ok: var(--nc-panel-ok, #1f7a4d);
  --_warn: var(--nc-panel-warn, #8a5a00);
  --_error: var(--nc-panel-error, #b42318);
  --_radius: var(--nc-panel-radius, 6px);
  display: flex;
  flex-direction: column;
  min-height: 0;
  height: 100%;
  background: var(--_bg);
  color: var(--_fg);
  font-family: var(--nc-panel-font, system-ui, sans-serif);
  font-size: var(--nc-panel-font-size, 13px);
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
button, select, textarea, input { font: inherit; color: inherit; }
button, select, input[type=text], textarea {
  background: var(--_surface); border: 1px solid var(--_border); border-radius: var(--_radius); padding: 3px 8px;
}
button { cursor: pointer; }
button:disabled { cursor: default; opacity: 0.6; }
button.primary { background: var(--_accent); border-color: var(--_accent); color: var(--_accent-fg); }
:focus-visible { outline: 2px solid var(--_accent); outline-offset: 1px; }
.bar { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; padding: 6px 8px; border-bottom: 1px solid var(--_border); }
.bar select { flex: 1; min-width: 0; }
.bar label { display: flex; gap: 4px; align-items: center; }
.log { flex: 1; min-height: 0; overflow: auto; padding: 8px; display: flex; flex-direction: column; gap: 6px; }
.msg { padding: 6px 8px; border-radius: var(--_radius); white-space: pre-wrap; overflow-wrap: anywhere; }
.msg.user { background: var(--_user); align-self: flex-end; max-width: 90%; }
.msg.model { background: var(--_surface); }
.msg.notice { color: var(--_muted); font-size: 0.92em; padding: 2px 4px; }
.msg.error { color: var(--_error); border: 1px solid var(--_error); }
.card { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 6px 8px; background: var(--_surface); display: flex; flex-direction: column; gap: 4px; }
.card .head { display: flex; gap: 6px; align-items: baseline; }
.card .summary-text { flex: 1; font-weight: 600; overflow-wrap: anywhere; }
.status { font-size: 0.85em; border-radius: 999px; padding: 0 6px; border: 1px solid currentColor; white-space: nowrap; }
.card[data-status=done] .status { color: var(--_ok); }
.card[data-status=error] .status { color: var(--_error); }
.card[data-status=declined] .status, .card[data-status=stopped] .status, .card[data-status=waiting] .status { color: var(--_warn); }
.card[data-status=running] .status { color: var(--_muted); }
details > summary { cursor: pointer; color: var(--_muted); font-size: 0.92em; }
pre { margin: 4px 0 0; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 240px; overflow: auto; font-size: 0.9em; }
.ask { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
.ask .prompt { flex: 1 1 100%; }
.plan ol { margin: 2px 0; padding-left: 20px; }
.plan textarea, .question input[type=text], .feedback textarea { width: 100%; }
.run-end { border-left: 3px solid var(--_accent); padding: 4px 8px; display: flex; flex-direction: column; gap: 4px; }
.run-end .row { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
.run-end img { max-width: 100%; border-radius: var(--_radius); border: 1px solid var(--_border); }
.meters { display: flex; flex-direction: column; gap: 2px; padding: 0 8px; }
.meter { display: flex; gap: 6px; align-items: center; font-size: 0.9em; }
.meter progress { flex: 1; }
.usage { color: var(--_muted); font-size: 0.9em; padding: 2px 8px; min-height: 1.2em; }
.composer { position: relative; border-top: 1px solid var(--_border); padding: 6px 8px; display: flex; flex-direction: column; gap: 4px; }
.chips { display: flex; flex-wrap: wrap; gap: 4px; }
.chip { display: inline-flex; align-items: center; gap: 2px; background: var(--_user); border-radius: 999px; padding: 0 2px 0 8px; font-size: 0.92em; }
.chip button { border: none; background: transparent; padding: 0 4px; }
.row { display: flex; gap: 6px; }
.composer textarea { flex: 1; resize: vertical; min-height: 2.6em; }
.mentions { position: absolute; bottom: 100%; left: 8px; right: 8px; max-height: 220px; overflow: auto; margin: 0; padding: 2px;
  list-style: none; background: var(--_bg); border: 1px solid var(--_border); border-radius: var(--_radius); }
.mentions li { padding: 3px 6px; border-radius: var(--_radius); cursor: pointer; display: flex; gap: 6px; }
.mentions li .kind { color: var(--_muted); }
.mentions li[aria-selected=true] { background: var(--_accent); color: var(--_accent-fg); }
.mentions li[aria-selected=true] .kind { color: inherit; }
.rename { display: flex; gap: 6px; flex: 1 1 100%; min-width: 0; }
.rename select, .rename input { flex: 1 1 0; width: 0; min-width: 0; }
`;
