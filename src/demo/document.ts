// The demo page's HTML: the static structure the script fills in. The accessible names docs/demo.md
// lists live here, in labels and button text, so assistive technology (and tests) find them as written.
export interface PageSettings {
  /** Where the assets are served, such as `/demo`. */
  assetPath: string
  script: string
  style: string
  apiPrefix: string
  /** The same-origin mount of the sandbox's control routes, when the upstream is the sandbox. */
  sandboxPath: string | undefined
}

const attr = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;')

const tokenSide = (side: 'from' | 'to', legend: string, verb: string) => `
      <fieldset class="side">
        <legend>${legend}</legend>
        <input type="search" id="${side}-search" aria-label="Search tokens to ${verb}" placeholder="Search tokens" autocomplete="off" spellcheck="false">
        <select id="${side}" aria-label="Token to ${verb}"></select>
        <p class="hint" id="${side}-hint"></p>
      </fieldset>`

export function demoPage(s: PageSettings): string {
  const sandbox = s.sandboxPath ? ` data-sandbox="${attr(s.sandboxPath)}"` : ''
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Swap gateway demo</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${attr(`${s.assetPath}/${s.style}`)}">
<script type="module" src="${attr(`${s.assetPath}/${s.script}`)}"></script>
</head>
<body data-api-prefix="${attr(s.apiPrefix)}"${sandbox}>
<header class="top">
  <div class="brand"><span class="logo" aria-hidden="true">⇄</span><h1>Swap gateway <span>demo</span></h1></div>
  <section id="wallet" class="wallet" aria-label="Wallet">
    <p id="wallet-state" class="wallet-state">Checking your session…</p>
    <button id="sign-in" type="button" class="secondary">Sign in with wallet</button>
    <button id="sign-out" type="button" class="secondary" hidden>Sign out</button>
  </section>
</header>
<div id="alert" class="alert" role="alert"></div>
<main class="layout">
  <section class="card" aria-labelledby="swap-title">
    <h2 id="swap-title">Swap</h2>
    <form id="swap" novalidate>${tokenSide('from', 'You send', 'send')}
      <div class="field">
        <label for="amount">Amount</label>
        <input id="amount" name="amount" inputmode="decimal" autocomplete="off" placeholder="0.0" aria-describedby="limits">
        <p class="hint" id="limits" aria-live="polite"></p>
      </div>
      <button id="flip" type="button" class="flip" aria-label="Swap the two tokens">⇅</button>${tokenSide('to', 'You receive', 'receive')}
      <div id="quote" class="quote" aria-live="polite"><p class="muted">Pick two tokens and an amount to see a quote.</p></div>
      <button id="get-quote" type="button" class="secondary">Get quote</button>
      <div class="field">
        <label for="address">Receiving address</label>
        <input id="address" name="address" autocomplete="off" spellcheck="false" placeholder="Where the tokens you receive are sent">
      </div>
      <button id="create" type="submit" class="primary">Create order</button>
    </form>
  </section>
  <div class="column">
    <section id="order" class="card" aria-labelledby="order-title" hidden>
      <h2 id="order-title">Order</h2>
      <p id="status" class="status" role="status"></p>
      <ol id="steps" class="steps" aria-label="Progress"></ol>
      <div id="notify" class="notify" hidden>
        <button id="notify-me" type="button" class="secondary small">Notify me</button>
        <p id="notify-state" class="hint" aria-live="polite"></p>
      </div>
      <div id="deposit" class="deposit"></div>
      <dl id="order-details" class="details"></dl>
      <div id="sandbox" class="sandbox" hidden>
        <h3>Sandbox</h3>
        <p class="hint">Move the order along as the swap service would.</p>
        <div class="buttons">
          <button type="button" data-action="deposit">Simulate deposit</button>
          <button type="button" data-action="confirm">Confirm deposit</button>
          <button type="button" data-action="complete">Fill order</button>
          <button type="button" data-action="fail">Fail order</button>
          <button type="button" data-action="expire">Expire order</button>
        </div>
      </div>
    </section>
    <section id="history" class="card" aria-labelledby="history-title" hidden>
      <div class="card-head">
        <h2 id="history-title">Your orders</h2>
        <button id="refresh-history" type="button" class="secondary small">Refresh history</button>
      </div>
      <ol id="history-list" class="history"></ol>
    </section>
    <section class="card about" aria-labelledby="about-title">
      <h2 id="about-title">What this is</h2>
      <p>A page on the gateway itself, built on its typed client: the catalog, live quotes, order creation with an
      idempotency key, the order's status stream and wallet sign-in. Every error shows its problem code.</p>
      <p><a href="${attr(`${s.apiPrefix}/docs`)}">API reference</a> · <a href="${attr(`${s.apiPrefix}/docs/errors`)}">Error codes</a></p>
    </section>
  </div>
</main>
<noscript><p class="alert">The demo needs JavaScript.</p></noscript>
</body>
</html>
`
}
