import { CONFIRM_DIALOG, TABLE_STYLES } from '../../console/console-dom.script';

/** Where the page's own files are served, beside it (see PortalPageController). */
export const PORTAL_ASSETS = {
  script: '/portal/portal.js',
  styles: '/portal/portal.css',
  icon: '/portal/favicon.svg',
} as const;

/**
 * The portal's stylesheet: one column, readable on a 390 px phone as at 1280 px; tables scroll inside their box, long
 * URLs and secrets break instead of widening the page.
 */
export const PORTAL_STYLES = `
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { font: 15px/1.45 system-ui, sans-serif; margin: 0; color: #1d232a; background: #f6f7f9; }
header { display: flex; flex-wrap: wrap; gap: .3rem 1rem; align-items: center; padding: .6rem 1rem; background: #1d232a; color: #fff; }
header h1 { font-size: 1.05rem; margin: 0; }
header .spacer { flex: 1; }
main { padding: 1rem; max-width: 1100px; margin: 0 auto; }
section { background: #fff; border: 1px solid #dde1e6; border-radius: 6px; padding: .8rem 1rem; margin-bottom: 1rem; min-width: 0; }
h2 { font-size: 1.05rem; margin: 0 0 .6rem; }
h3 { font-size: .95rem; margin: .9rem 0 .4rem; color: #57606a; }
${TABLE_STYLES}
td[data-column=url] { min-width: 12rem; word-break: break-all; }
td:not([data-column=url]):not([data-column=error]):not([data-column=responseExcerpt]) { white-space: nowrap; }
#flash, #secret-for, #detail-url, #customer-name, .sub { overflow-wrap: anywhere; }
td[data-column=actions] button { margin: 0 .2rem .2rem 0; }
tr.selected td { background: #ddf4ff; }
label { display: block; margin: 0 0 .6rem; }
input[type=url], input[type=text], input[type=datetime-local], select { width: 100%; max-width: 32rem; font: inherit; padding: .3rem; }
fieldset { border: 1px solid #dde1e6; border-radius: 6px; margin: 0 0 .6rem; min-width: 0; }
fieldset label { display: flex; gap: .4rem; align-items: baseline; margin: .2rem 0; }
fieldset label input { flex: none; }
.hint, .sub { color: #57606a; font-size: .9em; }
.row { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; }
.row label { flex: 1 1 14rem; margin: 0; }
button { cursor: pointer; font: inherit; padding: .25rem .6rem; }
#flash { min-height: 1.3rem; margin: 0 0 .6rem; color: #067647; } #flash.error { color: #b42318; }
section.secret { border-color: #b54708; background: #fffaeb; }
section.secret code { display: block; margin: .4rem 0; font-size: 1rem; word-break: break-all; user-select: all; }
section.notice { border-color: #b42318; }
pre { background: #f6f7f9; padding: .5rem; margin: 0; max-width: 28rem; max-height: 8rem; overflow: auto; white-space: pre-wrap; word-break: break-all; }
.state-failed, .state-disabled { color: #b42318; } .state-pending, .state-sending { color: #b54708; }
.state-delivered, .state-enabled { color: #067647; }
dialog { border: 1px solid #dde1e6; border-radius: 6px; max-width: min(32rem, 92vw); }
@media (max-width: 640px) { main { padding: .6rem; } section { padding: .6rem; } }
`;

/**
 * The customer portal: one static page with no data in it. A customer opens it through a one-time link
 * (`/portal#link=<token>`); its script trades the link for a session token, keeps that in sessionStorage only, and
 * manages the customer's webhook endpoints through the /customer/v1 API. Script and stylesheet are files of their
 * own, so the page's Content-Security-Policy allows no inline code.
 */
export const PORTAL_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Webhooks · customer portal</title>
<link rel="icon" href="${PORTAL_ASSETS.icon}" type="image/svg+xml">
<link rel="stylesheet" href="${PORTAL_ASSETS.styles}">
</head>
<body>
<header>
  <h1>Webhooks</h1>
  <span class="spacer"></span>
  <span id="customer-name"></span>
  <button id="sign-out" type="button" hidden>Sign out</button>
</header>
<main>
  <section id="opening"><p>Opening your portal…</p></section>
  <section id="no-session" class="notice" role="alert" hidden>
    <h2>This link cannot be used</h2>
    <p id="no-session-reason">This link is invalid, has expired or has already been used.</p>
    <p>Portal links work once. Ask your contact for a new link.</p>
  </section>
  <div id="app" hidden>
    <p id="flash" role="status"></p>
    <section id="secret" class="secret" hidden>
      <h2 id="secret-title">Signing secret</h2>
      <p id="secret-for" class="sub"></p>
      <code id="secret-value"></code>
      <p class="hint">Copy it now (select it, then copy) and keep it where your receiver can read it: it is not shown again.</p>
      <button id="secret-done" type="button">Done, hide it</button>
    </section>
    <section>
      <h2>Endpoints</h2>
      <div id="endpoints"></div>
    </section>
    <section>
      <h2>Add an endpoint</h2>
      <form id="add-endpoint">
        <label>URL <span class="hint">(https, where your service receives the webhooks)</span>
          <input id="endpoint-url" type="url" required maxlength="2000" placeholder="https://example.com/webhooks" autocomplete="off"></label>
        <fieldset>
          <legend>Event types</legend>
          <div id="event-type-choices"></div>
          <label for="event-type-patterns" class="hint">Or types and patterns, comma separated (e.g. order.*)</label>
          <input id="event-type-patterns" type="text" maxlength="2000" autocomplete="off">
        </fieldset>
        <label>Description <span class="hint">(optional)</span>
          <input id="endpoint-description" type="text" maxlength="500" autocomplete="off"></label>
        <button type="submit">Add endpoint</button>
      </form>
    </section>
    <section id="endpoint-detail" hidden>
      <h2>Deliveries to <span id="detail-url"></span></h2>
      <div class="row">
        <label>Status <select id="delivery-status">
          <option value="">all</option><option value="pending">pending</option><option value="delivered">delivered</option><option value="failed">failed</option>
        </select></label>
        <label>Test event type <select id="test-type"></select></label>
        <button id="send-test" type="button">Send a test event</button>
      </div>
      <div id="deliveries"></div>
      <form id="replay-since" class="row">
        <label>Send again every delivery since (UTC) <input id="replay-since-time" type="datetime-local" step="1" required></label>
        <button type="submit">Replay since</button>
      </form>
    </section>
    <section id="delivery-detail" hidden>
      <h2>Attempts of delivery <span id="delivery-id"></span></h2>
      <p id="delivery-summary" class="sub"></p>
      <div id="attempts"></div>
      <p><button id="replay-delivery" type="button">Send it again</button></p>
    </section>
  </div>
</main>
${CONFIRM_DIALOG}
<script src="${PORTAL_ASSETS.script}"></script>
</body>
</html>
`;
