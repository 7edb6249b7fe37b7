import { ConsolePage } from '../console-parts';

/**
 * Outbound webhook endpoints: each with its state, queue and failures; add one (its signing secret shown once),
 * disable, enable, rotate its secret. `#/webhooks/<endpoint id>`: its deliveries by status, a delivery's attempts,
 * send one that waits for its next attempt now, replay one, or replay every one since a time after a dry run that
 * says how many. Every change is confirmed.
 */
export const webhookEndpointsPage: ConsolePage = {
  id: 'webhooks',
  title: 'Webhooks',
  markup: `
<section>
  <h2>Outbound webhook endpoints</h2>
  <div id="wh-endpoints"></div>
  <details id="wh-add-box" data-action="create"><summary>Add an endpoint</summary>
    <form id="wh-add" class="filters">
      <label>URL <input id="wh-url" size="30" maxlength="2000" required placeholder="https://example.com/hooks"></label>
      <label>Event types <input id="wh-types" size="24" maxlength="2000" required placeholder="shop.order.*, shop.order.paid.v1"></label>
      <label>Description <input id="wh-description" size="16" maxlength="500"></label>
      <label><input type="checkbox" id="wh-ordered"> in order per aggregate</label>
      <button type="submit">Add…</button>
    </form>
  </details>
</section>
<section id="wh-secret-box" class="secret" hidden>
  <h2>Signing secret of <span id="wh-secret-url"></span></h2>
  <p>Shown this once: give it to the receiver now. It is never shown again (rotate the secret if it is lost).</p>
  <p><code id="wh-secret"></code> <button id="wh-secret-done">Done, hide it</button></p>
</section>
<section id="wh-deliveries-box" hidden>
  <h2>Deliveries to <span id="wh-endpoint-url"></span> <a class="link" href="#/webhooks">close</a></h2>
  <div class="filters">
    <label>Status <select id="wh-status"><option value="">any</option><option value="pending">pending</option>
      <option value="sending">sending</option><option value="delivered">delivered</option><option value="failed">failed</option></select></label>
    <span id="wh-delivery-count"></span>
    <form id="wh-replay" class="filters" data-action="replay-since" data-group="webhooks"><label>Replay the deliveries created since
      <input id="wh-since" size="20" maxlength="40" value="24h" required placeholder="ISO time, 30m, 6h or 2d"></label>
      <button type="submit">Dry run, then replay…</button></form>
  </div>
  <div id="wh-deliveries"></div>
</section>
<section id="wh-delivery-box" hidden>
  <h2>Delivery <span id="wh-delivery-id"></span> <button class="link" id="wh-delivery-close">close</button></h2>
  <div id="wh-delivery-fields"></div>
  <p id="wh-delivery-actions"></p>
  <h3>Attempts</h3><div id="wh-attempts"></div>
  <h3>Payload</h3><pre id="wh-payload"></pre>
</section>`,
  script: `
(() => {
  const h = hookrail;
  const view = { endpoints: [], endpoint: null, delivery: '', status: '', scroll: false };
  const base = (id) => '/admin/webhook-endpoints/' + id;

  async function change(text, path, body, done) {
    if (!(await h.confirmAction(text))) return;
    try {
      const result = await h.api(path, { method: 'POST', body: JSON.stringify(body || {}) });
      done(result);
    } catch (error) {
      h.flash('not done: ' + error.message, true);
    }
    await h.refresh();
  }

  function showSecret(endpoint) {
    h.$('wh-secret-url').textContent = endpoint.url;
    h.$('wh-secret').textContent = endpoint.secret;
    h.$('wh-secret-box').hidden = false;
    h.$('wh-secret-box').scrollIntoView({ block: 'nearest' });
  }

  function endpointActions(endpoint) {
    const waiting = endpoint.queue.pending + endpoint.queue.sending;
    return h.el('span', {},
      h.el('a', { href: '#/webhooks/' + endpoint.id, 'data-action': 'deliveries' }, 'deliveries'), ' ',
      endpoint.state === 'enabled'
        ? h.el('button', { 'data-action': 'disable', 'data-group': 'webhooks', onclick: () => change('Disable endpoint ' + endpoint.url + '? Its ' + waiting
            + ' queued deliveries and any new ones wait until it is enabled again; nothing is dropped.', base(endpoint.id) + '/disable', {},
            () => h.flash('Disabled ' + endpoint.url)) }, 'Disable')
        : h.el('button', { 'data-action': 'enable', 'data-group': 'webhooks', onclick: () => change('Enable endpoint ' + endpoint.url + '? The ' + endpoint.queue.pending
            + ' deliveries waiting for it are sent at once.', base(endpoint.id) + '/enable', {}, () => h.flash('Enabled ' + endpoint.url)) }, 'Enable'),
      ' ', h.el('button', { 'data-action': 'rotate', onclick: () => change('Rotate the signing secret of ' + endpoint.url + '? A new secret '
        + 'signs from now on; the current one keeps signing beside it for 24 hours, then stops. The new secret is shown once.',
        base(endpoint.id) + '/rotate-secret', {}, (result) => { showSecret(result); h.flash('New signing secret for ' + endpoint.url); }) }, 'Rotate secret'));
  }

  function endpoints(list) {
    h.$('wh-endpoints').replaceChildren(h.table([
      { title: 'endpoint', key: 'url', class: () => 'url', render: (row) => [row.url, h.el('span', { class: 'sub' }, row.description || '')] },
      { title: 'event types', key: 'eventTypes', render: (row) => row.eventTypes.join(', ') },
      { title: 'state', key: 'state', render: (row) => [h.el('span', { class: 'state-' + row.state }, row.state),
        row.disabledAt ? h.el('span', { class: 'sub', title: row.disabledReason || '' }, h.ago(row.disabledAt) + ': ' + (row.disabledReason || '')) : null] },
      { title: 'queue', key: 'queue', class: () => 'nowrap', render: (row) => [row.queue.pending + ' pending', h.el('span', { class: 'sub' }, row.queue.sending + ' sending')] },
      { title: 'failed', key: 'failed', class: (row) => 'nowrap' + (row.failures.failed ? ' bad' : ''), render: (row) => [String(row.failures.failed),
        row.failures.lastFailedAt ? h.el('span', { class: 'sub' }, 'latest ' + h.ago(row.failures.lastFailedAt)) : null] },
      { title: 'failing since', key: 'failingSince', class: (row) => 'nowrap' + (row.failingSince ? ' bad' : ''), render: (row) => row.failingSince ? h.ago(row.failingSince) : '' },
      { title: 'options', key: 'options', render: (row) => [row.ordered ? 'ordered' : 'unordered',
        h.el('span', { class: 'sub' }, (row.rateLimitPerSecond ? row.rateLimitPerSecond + '/s, ' : '') + row.secrets.length + ' secret(s)')] },
      { title: '', key: 'actions', render: endpointActions },
    ], list, (row) => ({ 'data-endpoint': row.id, 'data-state': row.state })));
  }

  function deliveryActions(delivery, inDetail) {
    const cell = h.el('span', {});
    if (!inDetail) cell.append(h.el('button', { class: 'link', 'data-action': 'attempts', onclick: () => { view.delivery = delivery.id; view.scroll = true; h.refresh(); } }, 'attempts'), ' ');
    cell.append(h.el('a', { href: '#/events/' + encodeURIComponent(delivery.eventId), 'data-action': 'trail' }, 'trail'));
    const waits = delivery.state === 'pending' && delivery.nextAttemptAt && new Date(delivery.nextAttemptAt).getTime() > Date.now();
    if (waits && view.endpoint.state === 'enabled')
      cell.append(' ', h.el('button', { 'data-action': 'retry', 'data-group': 'webhooks', onclick: () => change('Send delivery ' + delivery.id + ' (' + delivery.eventType + ') to '
        + view.endpoint.url + ' now, instead of at its next attempt (' + h.ago(delivery.nextAttemptAt) + ')? Its ' + delivery.attempts
        + ' attempt(s) so far count, and the retry schedule goes on from there.',
        base(view.endpoint.id) + '/deliveries/' + delivery.id + '/retry', {},
        () => h.flash('Delivery ' + delivery.id + ' is due now: the next free worker sends it')) }, 'Send now'));
    if (delivery.state === 'delivered' || delivery.state === 'failed')
      cell.append(' ', h.el('button', { 'data-action': 'replay', 'data-group': 'webhooks', onclick: () => change('Send delivery ' + delivery.id + ' (' + delivery.eventType + ') to '
        + view.endpoint.url + ' again? It gets a fresh attempt schedule and the same webhook-id (' + delivery.eventId + '), so a receiver that dedupes sees it once.',
        base(view.endpoint.id) + '/deliveries/' + delivery.id + '/replay', {},
        (result) => h.flash(result.replayed.length ? 'Delivery ' + delivery.id + ' queued again' : 'Nothing changed: delivery ' + delivery.id + ' is already queued', !result.replayed.length)) }, 'Replay'));
    return cell;
  }

  function answerOf(row) {
    return row.error || (row.status === null || row.status === undefined ? '' : 'HTTP ' + row.status);
  }

  async function deliveries(endpoint) {
    const query = new URLSearchParams({ limit: '100' });
    if (view.status) query.set('status', view.status);
    const list = await h.api(base(endpoint.id) + '/deliveries?' + query);
    h.$('wh-endpoint-url').textContent = endpoint.url;
    h.$('wh-delivery-count').textContent = (list.length === 100 ? 'the newest 100 deliveries' : list.length === 1 ? '1 delivery' : list.length + ' deliveries');
    h.$('wh-deliveries').replaceChildren(h.table([
      { title: 'created', key: 'createdAt', class: () => 'nowrap', render: (row) => h.time(row.createdAt) },
      { title: 'event', key: 'eventType', render: (row) => [row.eventType, h.el('span', { class: 'sub' }, row.eventId)] },
      { title: 'state', key: 'state', render: (row) => h.el('span', { class: 'state-' + row.state }, row.state) },
      { title: 'attempts', key: 'attempts', numeric: true },
      { title: 'last answer', key: 'lastError', class: () => 'message', render: (row) => h.el('span', { title: row.lastError || '' }, answerOf({ error: row.lastError, status: row.lastStatus })) },
      { title: 'when', key: 'when', class: () => 'nowrap', render: (row) => row.deliveredAt ? 'delivered ' + h.ago(row.deliveredAt)
        : row.failedAt ? 'failed ' + h.ago(row.failedAt) : row.nextAttemptAt ? 'next ' + h.ago(row.nextAttemptAt) : '' },
      { title: 'replays', key: 'replayCount', numeric: true },
      { title: '', key: 'actions', render: (row) => deliveryActions(row, false) },
    ], list, (row) => ({ 'data-delivery': row.id, 'data-state': row.state })));
  }

  async function delivery(endpoint, id) {
    const row = await h.api(base(endpoint.id) + '/deliveries/' + id);
    h.$('wh-delivery-box').hidden = false;
    h.$('wh-delivery-id').textContent = row.id + ' (' + row.state + ')';
    h.$('wh-delivery-fields').replaceChildren(h.table([{ title: 'field', key: 'name' }, { title: 'value', key: 'value' }], [
      ['event', row.eventType + ' ' + row.eventId], ['source', row.eventSource], ['event time', h.time(row.eventTime)],
      ['created', h.time(row.createdAt)], ['state', row.state], ['attempts', row.attempts], ['replays', row.replayCount],
      ['next attempt', row.nextAttemptAt ? h.time(row.nextAttemptAt) : ''], ['delivered', h.time(row.deliveredAt)], ['failed', h.time(row.failedAt)],
    ].map(([name, value]) => ({ name, value }))));
    h.$('wh-delivery-actions').replaceChildren(deliveryActions(row, true));
    h.$('wh-attempts').replaceChildren(h.table([
      { title: '#', key: 'attempt', numeric: true },
      { title: 'started', key: 'startedAt', class: () => 'nowrap', render: (attempt) => h.time(attempt.startedAt) },
      { title: 'latency', key: 'latencyMs', numeric: true, render: (attempt) => attempt.latencyMs === null ? 'in flight' : attempt.latencyMs + ' ms' },
      { title: 'answer', key: 'status', class: (attempt) => attempt.latencyMs === null ? '' : attempt.status >= 200 && attempt.status < 300 ? 'state-delivered' : 'state-failed',
        render: (attempt) => attempt.latencyMs === null ? 'in flight' : answerOf(attempt) },
      { title: 'response (first 2 KB)', key: 'responseBody', class: () => 'message', render: (attempt) => h.el('span', { title: attempt.responseBody || '' }, attempt.responseBody || '') },
      { title: 'worker', key: 'worker' },
    ], row.attemptLog, (attempt) => ({ 'data-attempt': attempt.attempt })));
    h.$('wh-payload').textContent = row.payload;
    if (view.scroll) { view.scroll = false; h.$('wh-delivery-box').scrollIntoView(); }
  }

  h.$('wh-add').addEventListener('submit', (event) => {
    event.preventDefault();
    const body = { url: h.$('wh-url').value.trim(), eventTypes: h.$('wh-types').value.split(',').map((type) => type.trim()).filter(Boolean),
      ordered: h.$('wh-ordered').checked };
    if (h.$('wh-description').value.trim()) body.description = h.$('wh-description').value.trim();
    change('Add endpoint ' + body.url + ' for ' + body.eventTypes.join(', ') + '? Its URL is checked (no private, loopback or metadata '
      + 'address) and its signing secret is shown once.', '/admin/webhook-endpoints', body, (created) => {
      h.$('wh-add').reset();
      showSecret(created);
      h.flash('Added endpoint ' + created.url);
    });
  });
  h.$('wh-replay').addEventListener('submit', async (event) => {
    event.preventDefault();
    const endpoint = view.endpoint;
    const since = h.$('wh-since').value.trim();
    let dry;
    try {
      dry = await h.api(base(endpoint.id) + '/replay', { method: 'POST', body: JSON.stringify({ since, dryRun: true }) });
    } catch (error) {
      return h.flash('dry run failed: ' + error.message, true);
    }
    if (dry.matched === 0) return h.flash('Dry run: no delivery to ' + endpoint.url + ' was created since ' + since + '; nothing to replay');
    change('Dry run: ' + dry.matched + ' deliveries to ' + endpoint.url + ' were created since ' + since + '. Send all ' + dry.matched
      + ' again, in order (same webhook-ids)?', base(endpoint.id) + '/replay', { since },
      (result) => h.flash('Replayed ' + result.replayed.length + ' of ' + result.matched + ' deliveries to ' + endpoint.url));
  });
  h.$('wh-status').addEventListener('change', () => { view.status = h.$('wh-status').value; h.refresh(); });
  h.$('wh-secret-done').addEventListener('click', () => { h.$('wh-secret').textContent = ''; h.$('wh-secret-box').hidden = true; });
  h.$('wh-delivery-close').addEventListener('click', () => { view.delivery = ''; h.$('wh-delivery-box').hidden = true; });
  h.page({
    id: 'webhooks',
    show(id) { if (!view.endpoint || view.endpoint.id !== id) { view.delivery = ''; h.$('wh-delivery-box').hidden = true; } },
    async refresh(id) {
      view.endpoints = await h.api('/admin/webhook-endpoints');
      endpoints(view.endpoints);
      view.endpoint = view.endpoints.find((endpoint) => endpoint.id === id) || null;
      h.$('wh-deliveries-box').hidden = !view.endpoint;
      if (!view.endpoint) return;
      await deliveries(view.endpoint);
      if (view.delivery) await delivery(view.endpoint, view.delivery);
    },
  });
})();
`,
};
