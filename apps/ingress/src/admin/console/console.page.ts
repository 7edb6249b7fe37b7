/**
 * The operator console: one static page, no framework. It keeps the ADMIN_TOKEN in sessionStorage and calls the
 * /admin JSON API with it; every value from the API is put in the page as text (textContent), never as HTML.
 */
export const CONSOLE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>hookrail console</title>
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1d232a; background: #f6f7f9; }
  header { display: flex; gap: 1rem; align-items: center; padding: .6rem 1.2rem; background: #1d232a; color: #fff; }
  header h1 { font-size: 1.1rem; margin: 0; }
  header .spacer { flex: 1; }
  main, #login { padding: 1rem 1.2rem; }
  section { background: #fff; border: 1px solid #dde1e6; border-radius: 6px; padding: .8rem 1rem; margin-bottom: 1rem; }
  h2 { font-size: 1rem; margin: 0 0 .6rem; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #eef0f2; vertical-align: top; }
  th { font-weight: 600; color: #57606a; }
  td.message { max-width: 28rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  .cards { display: flex; gap: 1rem; flex-wrap: wrap; }
  .card { border: 1px solid #dde1e6; border-radius: 6px; padding: .5rem .8rem; min-width: 8rem; }
  .card b { display: block; font-size: 1.4rem; }
  .status-dead { color: #b42318; } .status-replaying { color: #b54708; } .status-resolved { color: #067647; } .status-purged { color: #57606a; }
  pre { background: #f6f7f9; padding: .6rem; overflow: auto; max-height: 20rem; white-space: pre-wrap; word-break: break-all; }
  button { cursor: pointer; }
  .link { background: none; border: none; color: #0969da; padding: 0; text-decoration: underline; }
  #flash { min-height: 1.2rem; color: #067647; } #flash.error { color: #b42318; }
  dialog { border: 1px solid #dde1e6; border-radius: 6px; max-width: 32rem; }
</style>
</head>
<body>
<header><h1>hookrail</h1><span class="spacer"></span><span id="who"></span><button id="sign-out" hidden>Sign out</button></header>
<form id="login" hidden>
  <section>
    <h2>Operator console</h2>
    <p><label>Admin token<br><input id="token" name="token" type="password" autocomplete="off" required size="40"></label></p>
    <p><label>Your name, for the audit trail<br><input id="operator" name="operator" size="40" maxlength="100"></label></p>
    <button type="submit">Open</button>
    <p id="login-error" role="alert"></p>
  </section>
</form>
<main id="app" hidden>
  <p id="flash" role="status"></p>
  <section id="overview">
    <h2>Outbox backlog</h2>
    <div id="backlog" class="cards"></div>
    <h2 style="margin-top:1rem">Consumer lag</h2>
    <div id="lag"></div>
  </section>
  <section>
    <h2>Dead letters by error class</h2>
    <div id="classes"></div>
  </section>
  <section>
    <h2>Dead letters</h2>
    <p>
      <label>Status <select id="status">
        <option value="">any</option><option value="dead">dead</option><option value="replaying">replaying</option>
        <option value="resolved">resolved</option><option value="purged">purged</option>
      </select></label>
      <span id="filter"></span>
    </p>
    <div id="dead-letters"></div>
  </section>
  <section id="detail" hidden>
    <h2>Dead letter <span id="detail-id"></span> <button class="link" id="detail-close">close</button></h2>
    <div id="detail-fields"></div>
    <p id="detail-actions"></p>
    <h2>Error</h2><pre id="detail-error"></pre>
    <h2>Payload</h2><pre id="detail-payload"></pre>
    <h2>Headers</h2><pre id="detail-headers"></pre>
  </section>
</main>
<dialog id="confirm">
  <p id="confirm-text"></p>
  <form method="dialog"><button value="cancel" id="confirm-cancel">Cancel</button> <button value="ok" id="confirm-ok">Confirm</button></form>
</dialog>
<script>
(() => {
  const $ = (id) => document.getElementById(id);
  const state = { token: sessionStorage.getItem('hookrail.token'), operator: sessionStorage.getItem('hookrail.operator') || '', status: '', errorClass: '', group: '', detail: null };

  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
      else if (value !== undefined && value !== null) node.setAttribute(name, value);
    }
    for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(child === null || child === undefined ? '' : String(child)));
    return node;
  }
  const time = (value) => (value ? new Date(value).toISOString().replace('T', ' ').replace(/\\.\\d+Z$/, 'Z') : '');

  function table(columns, rows, rowAttributes) {
    if (rows.length === 0) return el('p', {}, 'none');
    return el('table', {},
      el('thead', {}, el('tr', {}, ...columns.map((column) => el('th', {}, column.title)))),
      el('tbody', {}, ...rows.map((row) => el('tr', rowAttributes ? rowAttributes(row) : {}, ...columns.map((column) => {
        const value = column.render ? column.render(row) : row[column.key];
        return el('td', { class: column.class ? column.class(row) : undefined, 'data-column': column.key }, value);
      })))));
  }

  async function api(path, options) {
    const headers = { authorization: 'Bearer ' + state.token };
    if (state.operator) headers['x-hookrail-operator'] = state.operator;
    if (options && options.body) headers['content-type'] = 'application/json';
    const response = await fetch(path, Object.assign({}, options, { headers }));
    if (response.status === 401) {
      signOut('The admin token was not accepted.');
      throw new Error('unauthorized');
    }
    const body = await response.json();
    if (!response.ok) throw new Error(body.message || response.statusText);
    return body;
  }

  function flash(text, isError) {
    $('flash').textContent = text;
    $('flash').className = isError ? 'error' : '';
  }

  function signOut(message) {
    sessionStorage.removeItem('hookrail.token');
    state.token = null;
    $('app').hidden = true;
    $('sign-out').hidden = true;
    $('who').textContent = '';
    $('login').hidden = false;
    $('login-error').textContent = message || '';
  }

  function confirmAction(text) {
    return new Promise((resolve) => {
      const dialog = $('confirm');
      $('confirm-text').textContent = text;
      dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true });
      dialog.showModal();
    });
  }

  async function change(action, row) {
    const target = action === 'replay' ? 'to ' + row.group + '.replay (only the group ' + row.group + ' receives it)' : 'for good (it stays listed as purged until retention deletes it)';
    if (!(await confirmAction(action[0].toUpperCase() + action.slice(1) + ' dead letter ' + row.id + ' ' + target + '?'))) return;
    try {
      const result = await api('/admin/dead-letters/' + row.id + '/' + action, { method: 'POST', body: '{}' });
      const done = action === 'replay' ? result.replayed : result.purged;
      flash(done.length ? (action === 'replay' ? 'Replayed ' : 'Purged ') + row.id : 'Nothing changed: the dead letter is no longer in status dead', done.length === 0);
    } catch (error) {
      flash(action + ' failed: ' + error.message, true);
    }
    await refresh();
  }

  function actions(row, inDetail) {
    const cell = el('span', {});
    if (!inDetail) cell.append(el('button', { class: 'link', 'data-action': 'show', onclick: () => showDetail(row.id) }, 'details'));
    if (row.status === 'dead') {
      cell.append(' ', el('button', { 'data-action': 'replay', onclick: () => change('replay', row) }, 'Replay'));
      cell.append(' ', el('button', { 'data-action': 'purge', onclick: () => change('purge', row) }, 'Purge'));
    }
    return cell;
  }

  async function showDetail(id) {
    try {
      state.detail = await api('/admin/dead-letters/' + id);
    } catch (error) {
      return flash('could not load ' + id + ': ' + error.message, true);
    }
    const row = state.detail;
    $('detail').hidden = false;
    $('detail-id').textContent = row.id;
    $('detail-fields').replaceChildren(table([{ title: 'field', key: 'name' }, { title: 'value', key: 'value' }], [
      ['status', row.status], ['group', row.group], ['event id', row.eventId], ['type', row.type], ['key', row.key],
      ['error class', row.errorClass], ['attempts', row.attempts], ['replays', row.replayCount], ['dead at', time(row.deadAt)],
      ['original', row.originalTopic + ' [' + row.originalPartition + '] @' + row.originalOffset], ['replays go to', row.replayTopic],
    ].map(([name, value]) => ({ name, value }))));
    $('detail-actions').replaceChildren(actions(row, true));
    $('detail-error').textContent = row.errorStack || row.errorClass + ': ' + row.errorMessage;
    let payload = row.payload || '';
    try { payload = JSON.stringify(JSON.parse(payload), null, 2); } catch (error) { /* shown as received */ }
    $('detail-payload').textContent = payload;
    $('detail-headers').textContent = JSON.stringify(row.headers, null, 2);
    $('detail').scrollIntoView();
  }

  async function refresh() {
    if (!state.token) return;
    const query = new URLSearchParams();
    if (state.status) query.set('status', state.status);
    if (state.errorClass) query.set('errorClass', state.errorClass);
    if (state.group) query.set('group', state.group);
    const [backlog, lag, list] = await Promise.allSettled([api('/admin/backlog'), api('/admin/lag'), api('/admin/dead-letters?' + query)]);
    if (backlog.status === 'fulfilled') {
      const b = backlog.value;
      $('backlog').replaceChildren(
        el('div', { class: 'card' }, el('b', { id: 'backlog-unpublished' }, b.unpublished), 'unpublished'),
        el('div', { class: 'card' }, el('b', {}, b.parked), 'parked'),
        el('div', { class: 'card' }, el('b', {}, b.oldestAgeSeconds + ' s'), 'oldest'));
    }
    if (lag.status === 'fulfilled') {
      const totals = {};
      for (const row of lag.value) totals[row.groupId] = (totals[row.groupId] || 0) + row.lag;
      $('lag').replaceChildren(
        table([{ title: 'group', key: 'groupId' }, { title: 'total lag', key: 'lag' }], Object.entries(totals).map(([groupId, total]) => ({ groupId, lag: total }))),
        el('details', {}, el('summary', {}, 'per partition'),
          table([{ title: 'group', key: 'groupId' }, { title: 'topic', key: 'topic' }, { title: 'partition', key: 'partition' }, { title: 'committed', key: 'committed' }, { title: 'end', key: 'end' }, { title: 'lag', key: 'lag' }], lag.value)));
    } else {
      $('lag').replaceChildren(el('p', {}, 'lag unavailable: ' + lag.reason.message));
    }
    if (list.status === 'rejected') return flash('could not load dead letters: ' + list.reason.message, true);
    const { items, total, byErrorClass } = list.value;
    $('classes').replaceChildren(table([
      { title: 'group', key: 'group' }, { title: 'error class', key: 'errorClass' }, { title: 'dead', key: 'count' },
      { title: 'last', key: 'lastDeadAt', render: (row) => time(row.lastDeadAt) },
      { title: '', key: 'show', render: (row) => el('button', { class: 'link', onclick: () => { state.group = row.group; state.errorClass = row.errorClass; refresh(); } }, 'show') },
    ], byErrorClass));
    $('filter').replaceChildren(state.group || state.errorClass
      ? el('span', {}, 'group ' + state.group + ', error class ' + state.errorClass + ' ', el('button', { class: 'link', onclick: () => { state.group = ''; state.errorClass = ''; refresh(); } }, 'clear'))
      : '', ' ' + items.length + ' of ' + total);
    $('dead-letters').replaceChildren(table([
      { title: 'dead at', key: 'deadAt', render: (row) => time(row.deadAt) },
      { title: 'group', key: 'group' }, { title: 'type', key: 'type' }, { title: 'key', key: 'key' },
      { title: 'error', key: 'errorClass' }, { title: 'message', key: 'errorMessage', class: () => 'message' },
      { title: 'replays', key: 'replayCount' },
      { title: 'status', key: 'status', class: (row) => 'status-' + row.status },
      { title: '', key: 'actions', render: actions },
    ], items, (row) => ({ 'data-id': row.id, 'data-status': row.status })));
    if (state.detail && !$('detail').hidden) {
      const fresh = items.find((row) => row.id === state.detail.id);
      if (fresh && fresh.status !== state.detail.status) showDetail(fresh.id);
    }
  }

  function open() {
    $('login').hidden = true;
    $('app').hidden = false;
    $('sign-out').hidden = false;
    $('who').textContent = state.operator ? 'signed in as ' + state.operator : 'signed in';
    refresh();
  }

  $('login').addEventListener('submit', (event) => {
    event.preventDefault();
    state.token = $('token').value.trim();
    state.operator = $('operator').value.trim();
    sessionStorage.setItem('hookrail.token', state.token);
    sessionStorage.setItem('hookrail.operator', state.operator);
    $('token').value = '';
    $('login-error').textContent = '';
    open();
  });
  $('sign-out').addEventListener('click', () => signOut());
  $('status').addEventListener('change', () => { state.status = $('status').value; refresh(); });
  $('detail-close').addEventListener('click', () => { $('detail').hidden = true; state.detail = null; });
  setInterval(() => refresh().catch(() => undefined), 2000);
  if (state.token) open(); else signOut();
})();
</script>
</body>
</html>
`;
