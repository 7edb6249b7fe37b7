import { DOM_HELPERS_SCRIPT } from '../../console/console-dom.script';

/**
 * The portal's runtime. On load it takes the one-time link from the URL fragment (`#link=<token>`), removes it from
 * the address bar at once, trades it for a session token (POST /customer/v1/sessions) and keeps that in
 * sessionStorage only. Then it lists the customer's endpoints and, for the one chosen, its deliveries and a delivery's
 * attempts, refreshed every 3 seconds, with the actions the API offers. A refused link, or a session the API no longer
 * accepts (401), ends in the "ask for a new link" notice. Every value from the API goes in as text, never as HTML.
 */
export const PORTAL_SCRIPT = `
(() => {
${DOM_HELPERS_SCRIPT}
  const API = '/customer/v1';
  const SESSION_KEY = 'hookrail.portal.session';
  const REFRESH_MS = 3000;
  const REASONS = {
    noLink: 'This page opens from a portal link, and none was given.',
    refused: 'This link is invalid, has expired or has already been used.',
    ended: 'Your session has ended: it expired or was revoked.',
  };
  const state = { token: sessionStorage.getItem(SESSION_KEY), eventTypes: [], endpoints: [], endpointId: null, deliveryId: null };

  /** Thrown once the session is over; the notice is already on screen. */
  class SessionOver extends Error {}

  async function api(path, options) {
    const init = { method: (options && options.method) || 'GET', headers: {}, credentials: 'omit', cache: 'no-store' };
    if (state.token) init.headers.authorization = 'Bearer ' + state.token;
    if (options && options.body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(options.body);
    }
    const response = await fetch(API + path, init);
    const text = await response.text();
    let body = null;
    try { body = text ? JSON.parse(text) : null; } catch (error) { body = null; }
    if (response.status === 401) {
      end(state.token ? REASONS.ended : REASONS.refused);
      throw new SessionOver('unauthorized');
    }
    if (response.status === 429)
      throw new Error('Too many requests: try again in ' + (response.headers.get('retry-after') || 'a few') + ' s.');
    if (!response.ok) throw new Error((body && body.message) || 'the portal answered ' + response.status);
    return body;
  }

  function end(reason) {
    sessionStorage.removeItem(SESSION_KEY);
    Object.assign(state, { token: null, endpointId: null, deliveryId: null });
    $('opening').hidden = true;
    $('app').hidden = true;
    $('sign-out').hidden = true;
    $('customer-name').textContent = '';
    $('no-session-reason').textContent = reason;
    $('no-session').hidden = false;
  }

  function flash(text, isError) {
    $('flash').textContent = text;
    $('flash').className = isError ? 'error' : '';
  }

  /** Runs an action, says how it went, and refreshes what is on screen. */
  async function act(work) {
    flash('');
    try {
      const message = await work();
      if (message) flash(message);
    } catch (error) {
      if (!(error instanceof SessionOver)) flash(error.message, true);
    }
    await refresh();
  }

  function button(action, label, onclick) {
    return el('button', { type: 'button', 'data-action': action, onclick }, label);
  }

  function showSecret(title, url, secret) {
    $('secret-title').textContent = title;
    $('secret-for').textContent = 'for ' + url;
    $('secret-value').textContent = secret;
    $('secret').hidden = false;
    $('secret').scrollIntoView({ block: 'nearest' });
  }

  function hideSecret() {
    $('secret-value').textContent = '';
    $('secret').hidden = true;
  }

  const selected = () => state.endpoints.find((endpoint) => endpoint.id === state.endpointId);
  const endpointPath = (suffix) => '/endpoints/' + encodeURIComponent(state.endpointId) + (suffix || '');
  const matches = (pattern, type) => pattern === '*' || pattern === type || (pattern.endsWith('*') && type.startsWith(pattern.slice(0, -1)));

  function renderEventTypes() {
    $('event-type-choices').replaceChildren(state.eventTypes.length === 0
      ? el('p', { class: 'hint' }, 'No event types are listed: type them below.')
      : el('div', {}, state.eventTypes.map((eventType) => el('label', {},
        el('input', { type: 'checkbox', name: 'event-type', value: eventType.type }),
        el('span', {}, eventType.type, eventType.description ? el('span', { class: 'sub' }, ' ' + eventType.description) : null)))));
  }

  function renderEndpoints() {
    $('endpoints').replaceChildren(table([
      { title: 'URL', key: 'url', render: (row) => [row.url, row.description ? el('span', { class: 'sub' }, ' ' + row.description) : null] },
      { title: 'Event types', key: 'eventTypes', render: (row) => (row.eventTypes || []).join(', ') },
      { title: 'State', key: 'state', class: (row) => 'state-' + row.state,
        render: (row) => [row.state, row.disabledReason ? el('span', { class: 'sub' }, ' ' + row.disabledReason) : null] },
      { title: 'Created', key: 'createdAt', render: (row) => time(row.createdAt) },
      { title: '', key: 'actions', render: (row) => [
        button('deliveries', 'Deliveries', () => choose(row.id)),
        row.state === 'disabled'
          ? button('enable', 'Enable', () => act(() => post(row, '/enable').then(() => 'Enabled ' + row.url)))
          : button('disable', 'Disable', () => act(() => post(row, '/disable').then(() => 'Disabled ' + row.url))),
        button('rotate', 'Rotate secret', () => act(() => rotate(row))),
        button('delete', 'Delete', () => act(() => remove(row))),
      ] },
    ], state.endpoints, (row) => ({ 'data-id': row.id, 'data-state': row.state, class: row.id === state.endpointId ? 'selected' : undefined })));
  }

  const post = (endpoint, suffix, body) =>
    api('/endpoints/' + encodeURIComponent(endpoint.id) + suffix, { method: 'POST', body: body || {} });

  async function rotate(endpoint) {
    if (!(await confirmAction('Rotate the signing secret of ' + endpoint.url + '? Webhooks are then signed with the new one.'))) return '';
    const { secret } = await post(endpoint, '/rotate-secret');
    showSecret('New signing secret', endpoint.url, secret);
    return 'Rotated the secret of ' + endpoint.url;
  }

  async function remove(endpoint) {
    if (!(await confirmAction('Delete the endpoint ' + endpoint.url + '? It receives nothing more, and its deliveries go with it.'))) return '';
    await api('/endpoints/' + encodeURIComponent(endpoint.id), { method: 'DELETE' });
    if (state.endpointId === endpoint.id) choose(null);
    return 'Deleted ' + endpoint.url;
  }

  /** Shows the deliveries of one endpoint (null: none). */
  function choose(id) {
    Object.assign(state, { endpointId: id, deliveryId: null });
    const endpoint = selected();
    $('endpoint-detail').hidden = !endpoint;
    $('delivery-detail').hidden = true;
    $('deliveries').replaceChildren();
    if (endpoint) {
      $('detail-url').textContent = endpoint.url;
      const types = state.eventTypes.map((eventType) => eventType.type)
        .filter((type) => (endpoint.eventTypes || []).some((pattern) => matches(pattern, type)));
      $('test-type').replaceChildren(el('option', { value: '' }, 'any of its types'), types.map((type) => el('option', { value: type }, type)));
      $('endpoint-detail').scrollIntoView({ block: 'nearest' });
    }
    refresh();
  }

  function renderDeliveries(deliveries) {
    $('deliveries').replaceChildren(table([
      { title: 'Created', key: 'createdAt', render: (row) => time(row.createdAt) },
      { title: 'Type', key: 'eventType' },
      { title: 'State', key: 'state', class: (row) => 'state-' + row.state },
      { title: 'Attempts', key: 'attempts', numeric: true },
      { title: 'Last status', key: 'lastStatus', numeric: true },
      { title: 'Last attempt', key: 'lastAttemptAt', render: (row) => time(row.lastAttemptAt) },
      { title: '', key: 'actions', render: (row) => [
        button('attempts', 'Attempts', () => { state.deliveryId = row.id; refresh(); }),
        button('replay', 'Send again', () => act(() => replay(row.id))),
      ] },
    ], deliveries, (row) => ({ 'data-id': row.id, 'data-state': row.state, class: row.id === state.deliveryId ? 'selected' : undefined })));
  }

  function renderDelivery(delivery) {
    $('delivery-id').textContent = delivery.id;
    $('delivery-summary').textContent = [delivery.eventType, 'event ' + delivery.eventId, delivery.state,
      delivery.attempts + ' attempt(s)'].join(' · ');
    $('attempts').replaceChildren(table([
      { title: 'Time', key: 'at', render: (row) => time(row.at) },
      { title: 'Duration', key: 'durationMs', numeric: true, render: (row) => (row.durationMs === null || row.durationMs === undefined ? '' : row.durationMs + ' ms') },
      { title: 'Status', key: 'status', numeric: true },
      { title: 'Error', key: 'error' },
      { title: 'Response', key: 'responseExcerpt', render: (row) => (row.responseExcerpt ? el('pre', {}, row.responseExcerpt) : '') },
    ], delivery.attemptsLog || []));
    $('delivery-detail').hidden = false;
  }

  async function replay(deliveryId) {
    await api(endpointPath('/deliveries/' + encodeURIComponent(deliveryId) + '/replay'), { method: 'POST', body: {} });
    return 'Delivery ' + deliveryId + ' will be sent again';
  }

  let refreshing = null;
  let again = false;
  /** Reloads what is on screen; asked while it runs, it runs once more after. */
  async function refresh() {
    if (!state.token) return;
    if (refreshing) {
      again = true;
      return refreshing;
    }
    refreshing = load();
    try {
      await refreshing;
    } finally {
      refreshing = null;
    }
    if (again) {
      again = false;
      await refresh();
    }
  }

  async function load() {
    try {
      state.endpoints = await api('/endpoints');
      renderEndpoints();
      if (state.endpointId && !selected()) choose(null);
      if (state.endpointId) {
        const status = $('delivery-status').value;
        renderDeliveries(await api(endpointPath('/deliveries?limit=50' + (status ? '&status=' + encodeURIComponent(status) : ''))));
      }
      if (state.endpointId && state.deliveryId)
        renderDelivery(await api(endpointPath('/deliveries/' + encodeURIComponent(state.deliveryId))));
    } catch (error) {
      if (!(error instanceof SessionOver)) flash('Could not refresh: ' + error.message, true);
    }
  }

  function wire() {
    $('secret-done').addEventListener('click', hideSecret);
    $('sign-out').addEventListener('click', () => end('You signed out.'));
    $('delivery-status').addEventListener('change', () => refresh());
    $('add-endpoint').addEventListener('submit', (event) => {
      event.preventDefault();
      act(async () => {
        const checked = [...document.querySelectorAll('#event-type-choices input:checked')].map((input) => input.value);
        const typed = $('event-type-patterns').value.split(',').map((part) => part.trim()).filter(Boolean);
        const eventTypes = [...new Set([...checked, ...typed])];
        if (eventTypes.length === 0) throw new Error('Choose at least one event type.');
        const description = $('endpoint-description').value.trim();
        const created = await api('/endpoints', { method: 'POST',
          body: { url: $('endpoint-url').value.trim(), eventTypes, description: description || undefined } });
        $('add-endpoint').reset();
        showSecret('Signing secret of your new endpoint', created.url, created.secret);
        return 'Added ' + created.url;
      });
    });
    $('send-test').addEventListener('click', () => act(async () => {
      const eventType = $('test-type').value;
      const { deliveryId } = await api(endpointPath('/test'), { method: 'POST', body: eventType ? { eventType } : {} });
      state.deliveryId = deliveryId;
      return 'Test event sent: delivery ' + deliveryId;
    }));
    $('replay-delivery').addEventListener('click', () => act(() => replay(state.deliveryId)));
    $('replay-since-time').value = new Date(Date.now() - 3600000).toISOString().slice(0, 19);
    $('replay-since').addEventListener('submit', (event) => {
      event.preventDefault();
      act(async () => {
        const since = new Date($('replay-since-time').value + 'Z');
        if (Number.isNaN(since.getTime())) throw new Error('Give the time to replay from.');
        const endpoint = selected();
        if (!(await confirmAction('Send again every delivery to ' + endpoint.url + ' since ' + time(since) + '?'))) return '';
        const result = await api(endpointPath('/replay'), { method: 'POST', body: { since: since.toISOString() } });
        const replayed = Array.isArray(result.replayed) ? result.replayed.length : result.replayed;
        return 'Replay since ' + time(since) + ': ' + result.matched + ' matched, ' + replayed + ' sent again';
      });
    });
  }

  async function open() {
    const link = /(?:^#|&)link=([^&]*)/.exec(location.hash);
    // The link works once: it leaves the address bar (and the history) before anything else happens.
    if (location.hash) history.replaceState(null, '', location.pathname + location.search);
    try {
      if (link) {
        state.token = null;
        const session = await api('/sessions', { method: 'POST', body: { link: decodeURIComponent(link[1]) } });
        state.token = session.token;
        sessionStorage.setItem(SESSION_KEY, session.token);
      } else if (!state.token) return end(REASONS.noLink);
      const me = await api('/me');
      $('customer-name').textContent = me.customer.name;
      $('opening').hidden = true;
      $('app').hidden = false;
      $('sign-out').hidden = false;
      state.eventTypes = await api('/event-types');
      renderEventTypes();
      await refresh();
    } catch (error) {
      if (!(error instanceof SessionOver)) end('The portal could not be opened: ' + error.message);
    }
  }

  wire();
  setInterval(() => { if (!document.hidden) refresh(); }, REFRESH_MS);
  open();
})();
`;
