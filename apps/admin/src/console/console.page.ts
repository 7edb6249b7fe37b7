import { CONSOLE_CORE_SCRIPT } from './console-core.script';
import { CONFIRM_DIALOG } from './console-dom.script';
import { CONSOLE_STYLES } from './console.styles';
import { CONSOLE_PAGES } from './pages';
import { CONSOLE_PANELS } from './panels';

/**
 * The operator console: one static page, no framework, no data in it. It keeps the ADMIN_TOKEN in sessionStorage and
 * calls the /admin JSON API with it; its charts are drawn by uPlot, served from the npm package at /admin/assets.
 * Assembled once from the core runtime, the panels and the pages (one file each, see pages/ and panels/).
 */
export const CONSOLE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>hookrail console</title>
<link rel="icon" href="/admin/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/admin/assets/uplot.min.css">
<style>${CONSOLE_STYLES}</style>
</head>
<body>
<header>
  <h1>hookrail</h1>
  <nav id="nav" hidden>${CONSOLE_PAGES.map((page) => `<a href="#/${page.id}" data-page="${page.id}"${page.needs ? ` data-need="${page.needs}"` : ''}>${page.title}</a>`).join('')}</nav>
  <span class="spacer"></span>
  <form id="find-event" hidden><input id="find-event-ref" aria-label="event id, sender event id or aggregate id"
    placeholder="event, sender or order id" size="20" maxlength="300"><button type="submit">Trace</button></form>
  <span id="who"></span><button id="sign-out" hidden>Sign out</button>
</header>
<form id="login" hidden>
  <section>
    <h2>Operator console</h2>
    <p><label>Token<br><input id="token" name="token" type="password" autocomplete="off" required size="40"></label></p>
    <p><label>Your name, for the audit trail<br><input id="operator" name="operator" size="40" maxlength="100"></label></p>
    <button type="submit">Open</button>
    <p id="login-error" role="alert"></p>
  </section>
</form>
<main id="app" hidden>
  <p id="flash" role="status"></p>
${CONSOLE_PAGES.map((page) => `<div class="page" data-page="${page.id}" id="page-${page.id}" hidden>${page.markup}</div>`).join('\n')}
</main>
${CONFIRM_DIALOG}
<script src="/admin/assets/uplot.iife.min.js"></script>
<script>${CONSOLE_CORE_SCRIPT}</script>
${[...CONSOLE_PANELS, ...CONSOLE_PAGES].map((part) => `<script>${part.script}</script>`).join('\n')}
<script>hookrail.start();</script>
</body>
</html>
`;
