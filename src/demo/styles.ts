// The demo page's stylesheet, served as a hashed file (the page's CSP allows styles from the gateway
// only). Kept in a module so that it reaches dist/ with the compiled code, with no copy step.
export const DEMO_STYLES = `
:root {
  --bg: #f3f4fa; --card: #fff; --ink: #15172b; --muted: #5d6279; --line: #e1e3ee;
  --accent: #4f46e5; --accent-dark: #3f37c9; --accent-soft: #eef0ff;
  --ok: #0d7a55; --ok-soft: #e3f6ee; --bad: #b42318; --bad-soft: #fdecea; --wait: #8a5a00; --wait-soft: #fff4dc;
  --radius: 14px; --shadow: 0 1px 2px rgb(20 22 43 / 6%), 0 8px 24px rgb(20 22 43 / 6%);
  color-scheme: light;
  font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--ink); background: var(--bg);
}
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; }
h1, h2, h3 { margin: 0; line-height: 1.2; }
h1 { font-size: 1.15rem; }
h1 span { color: var(--muted); font-weight: 500; }
h2 { font-size: 1.05rem; margin-bottom: 0.9rem; }
h3 { font-size: 0.95rem; }
a { color: var(--accent-dark); }
code, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 0.88em; overflow-wrap: anywhere; }
[hidden] { display: none !important; }

.top {
  display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 0.75rem;
  padding: 0.85rem clamp(1rem, 4vw, 2rem); background: var(--card); border-bottom: 1px solid var(--line);
}
.brand { display: flex; align-items: center; gap: 0.6rem; }
.logo {
  display: grid; place-items: center; width: 2rem; height: 2rem; border-radius: 10px;
  background: var(--accent); color: #fff; font-weight: 700;
}
.wallet { display: flex; flex-wrap: wrap; align-items: center; gap: 0.6rem; }
.wallet-state { margin: 0; color: var(--muted); font-size: 0.92rem; }
.wallet-state strong { color: var(--ink); }
.wallet-state .lapsed { color: var(--bad); }

.alert:empty { display: none; }
/* Sticky: an error stays in sight wherever the button that caused it sits on a long phone page. */
.alert {
  position: sticky; top: 0.5rem; z-index: 10; box-shadow: var(--shadow);
  display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.5rem;
  margin: 1rem auto 0; max-width: 1120px; width: calc(100% - 2 * clamp(1rem, 4vw, 2rem));
  padding: 0.75rem 1rem; border-radius: 10px; background: var(--bad-soft); color: var(--bad);
  border: 1px solid rgb(180 35 24 / 25%);
}
.alert .code { font-family: ui-monospace, Menlo, Consolas, monospace; font-weight: 700; }
.alert .detail { color: var(--ink); flex: 1 1 16rem; }
.alert button { margin-left: auto; }

.layout {
  display: grid; gap: 1.25rem; align-items: start;
  max-width: 1120px; margin: 1.25rem auto 2rem; padding: 0 clamp(1rem, 4vw, 2rem);
  grid-template-columns: minmax(0, 1fr);
}
@media (min-width: 880px) { .layout { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); } }
.column { display: grid; gap: 1.25rem; min-width: 0; }
.card {
  background: var(--card); border: 1px solid var(--line); border-radius: var(--radius);
  box-shadow: var(--shadow); padding: clamp(1rem, 3vw, 1.4rem); min-width: 0;
}
.card-head { display: flex; align-items: center; justify-content: space-between; gap: 0.5rem; margin-bottom: 0.9rem; }
.card-head h2 { margin: 0; }
.about p { margin: 0 0 0.6rem; color: var(--muted); font-size: 0.92rem; }

form { display: grid; gap: 0.9rem; }
fieldset { margin: 0; padding: 0.8rem; border: 1px solid var(--line); border-radius: 12px; display: grid; gap: 0.5rem; min-width: 0; }
legend { padding: 0 0.3rem; font-weight: 600; font-size: 0.9rem; }
label { font-weight: 600; font-size: 0.9rem; }
.field { display: grid; gap: 0.35rem; }
input, select, button { font: inherit; }
input, select {
  width: 100%; min-width: 0; padding: 0.6rem 0.7rem; border: 1px solid #cfd2e1; border-radius: 10px;
  background: #fff; color: var(--ink);
}
input:focus-visible, select:focus-visible, button:focus-visible, a:focus-visible {
  outline: 3px solid rgb(79 70 229 / 35%); outline-offset: 1px; border-color: var(--accent);
}
input[aria-invalid="true"] { border-color: var(--bad); }
.hint { margin: 0; color: var(--muted); font-size: 0.85rem; min-height: 1.2em; }
.hint .warning { color: var(--wait); }
.muted { color: var(--muted); margin: 0; }

button {
  cursor: pointer; border-radius: 10px; padding: 0.6rem 1rem; border: 1px solid #cfd2e1;
  background: #fff; color: var(--ink); font-weight: 600;
}
button:hover:not(:disabled) { border-color: var(--accent); color: var(--accent-dark); }
button:disabled { cursor: not-allowed; opacity: 0.55; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; padding: 0.75rem 1rem; }
button.primary:hover:not(:disabled) { background: var(--accent-dark); color: #fff; }
button.small { padding: 0.35rem 0.7rem; font-size: 0.85rem; }
.flip { justify-self: center; width: 2.6rem; height: 2.6rem; padding: 0; border-radius: 50%; font-size: 1.1rem; margin: -0.4rem 0; }

.quote { padding: 0.8rem; border-radius: 12px; background: var(--accent-soft); min-height: 3.2rem; }
.quote .receive { font-size: 1.25rem; font-weight: 700; margin: 0; overflow-wrap: anywhere; }
.quote .rate { margin: 0.2rem 0 0; color: var(--muted); font-size: 0.85rem; overflow-wrap: anywhere; }
.quote.loading { opacity: 0.6; }
.quote .age { margin: 0.2rem 0 0; color: var(--muted); font-size: 0.8rem; }
.quote.stale .receive, .quote.stale .rate { opacity: 0.55; text-decoration: line-through; }

.status {
  display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; margin: 0 0 1rem;
  padding: 0.7rem 0.8rem; border-radius: 12px; background: var(--wait-soft); color: var(--wait);
}
.status .badge { font-family: ui-monospace, Menlo, Consolas, monospace; font-weight: 700; font-size: 0.82rem; letter-spacing: 0.02em; overflow-wrap: anywhere; }
.status .text { color: var(--ink); }
.status.done { background: var(--ok-soft); color: var(--ok); }
.status.failed { background: var(--bad-soft); color: var(--bad); }

.steps { list-style: none; display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: 0.35rem; padding: 0; margin: 0 0 1rem; }
.steps li { font-size: 0.75rem; color: var(--muted); text-align: center; padding-top: 0.45rem; border-top: 4px solid var(--line); overflow-wrap: anywhere; }
.steps li.done { border-color: var(--ok); color: var(--ink); }
.steps li.current { border-color: var(--accent); color: var(--ink); font-weight: 600; }

.notify { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4rem 0.75rem; margin: 0 0 1rem; }
.notify .hint { flex: 1 1 14rem; min-height: 0; }
.deposit:empty { display: none; }
.deposit { padding: 0.8rem; border: 1px dashed #b9bdd3; border-radius: 12px; margin-bottom: 1rem; display: grid; gap: 0.45rem; }
.deposit p { margin: 0; }
.deposit .address { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
.deposit .address code { flex: 1 1 12rem; padding: 0.45rem 0.55rem; background: var(--bg); border-radius: 8px; }
.countdown { font-variant-numeric: tabular-nums; font-weight: 700; }

.details { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0.35rem 1rem; margin: 0; font-size: 0.92rem; }
.details dt { color: var(--muted); }
.details dd { margin: 0; overflow-wrap: anywhere; }

.sandbox { margin-top: 1rem; padding-top: 1rem; border-top: 1px solid var(--line); display: grid; gap: 0.4rem; }
.buttons { display: flex; flex-wrap: wrap; gap: 0.45rem; }
.buttons button { padding: 0.45rem 0.75rem; font-size: 0.88rem; }

.history { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.5rem; }
.history li button {
  width: 100%; display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 0.2rem 0.75rem;
  text-align: left; font-weight: 400; padding: 0.6rem 0.75rem;
}
.history .pair { font-weight: 600; }
.history .when { color: var(--muted); font-size: 0.82rem; }
.history .state { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.78rem; align-self: center; grid-row: span 2; }
`
