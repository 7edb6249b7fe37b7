import { ConsolePage } from '../console-parts';

/**
 * Sagas: how many are in each state, the list (failed first, they wait for a human) filtered by state, type or order,
 * and `#/sagas/<id>`: one saga with its data, its steps' results and every transition; a failed one can be retried
 * after a confirmation (the coordinator sends its compensation again, same idempotency key), a running one cancelled
 * (with an optional reason; what it did is undone and it ends cancelled). The last error of a saga that ended since
 * (a retry compensated it) is shown as history, not as its current error.
 */
export const sagasPage: ConsolePage = {
  id: 'sagas',
  title: 'Sagas',
  markup: `
<section>
  <h2>Sagas by state</h2>
  <div id="saga-states" class="cards"></div>
</section>
<section>
  <h2>Sagas</h2>
  <form id="saga-filter" class="filters">
    <label>State <select id="saga-state">
      <option value="">any</option><option value="failed">failed</option><option value="compensating">compensating</option>
      <option value="running">running</option><option value="compensated">compensated</option><option value="cancelled">cancelled</option>
      <option value="completed">completed</option>
    </select></label>
    <label>Type <input id="saga-type" size="18" maxlength="100" placeholder="order-fulfilment"></label>
    <label>Order <input id="saga-correlation" size="18" maxlength="300" placeholder="correlation id"></label>
    <button type="submit">Filter</button> <span id="saga-count"></span>
  </form>
  <div id="sagas"></div>
</section>
<section id="saga-detail" hidden>
  <h2>Saga <span id="saga-detail-id"></span> <a class="link" href="#/sagas" id="saga-detail-close">close</a></h2>
  <div id="saga-detail-fields"></div>
  <p id="saga-detail-actions"></p>
  <h3>History</h3><div id="saga-history"></div>
  <h3>Data and results</h3><pre id="saga-data"></pre>
</section>`,
  script: `
(() => {
  const h = hookrail;
  const view = { state: '', type: '', correlationId: '', shown: '', scroll: false };
  const retryPending = (saga) => saga.state === 'failed' && saga.deadline;
  const cancelPending = (saga) => saga.state === 'running' && saga.cancellation;
  // A saga that ended (a retry compensated it, say) keeps its last error in the row: it is history by now.
  const ended = (saga) => ['compensated', 'completed', 'cancelled'].includes(saga.state);
  const failureLabel = (saga) => (saga.state === 'compensated' ? 'compensated because' : 'failure');

  function lastError(saga) {
    return ended(saga) ? ['earlier error (resolved)', h.el('span', { class: 'history' }, saga.lastError || '')] : ['last error', saga.lastError || ''];
  }

  function stateOf(saga) {
    const pending = retryPending(saga) ? ' (retry pending)' : cancelPending(saga) ? ' (cancel pending)' : '';
    return h.el('span', { class: 'state-' + saga.state }, saga.state, pending);
  }

  function actions(saga, inDetail) {
    const cell = h.el('span', {});
    if (!inDetail) cell.append(h.el('a', { href: '#/sagas/' + saga.id, 'data-action': 'show' }, 'details'));
    cell.append(' ', h.el('a', { href: '#/events/' + encodeURIComponent(saga.startEventId), 'data-action': 'trail' }, 'trail'));
    if (saga.state === 'failed' && !saga.deadline)
      cell.append(' ', h.el('button', { 'data-action': 'retry', 'data-group': 'fulfilment', onclick: () => retry(saga) }, 'Retry'));
    if (saga.state === 'running' && !saga.cancellation) {
      if (inDetail) cell.append(' ', h.el('input', { id: 'saga-cancel-reason', size: '28', maxlength: '500', placeholder: 'reason (optional)' }));
      cell.append(' ', h.el('button', { 'data-action': 'cancel', 'data-group': 'fulfilment', onclick: () => cancel(saga) }, 'Cancel saga'));
    }
    return cell;
  }

  async function cancel(saga) {
    const input = h.$('saga-cancel-reason');
    const reason = input && input.value.trim();
    const text = 'Cancel saga ' + saga.id + ' (' + saga.type + ', order ' + saga.correlationId + ')? The coordinator undoes what it '
      + 'did, from step ' + saga.step + ' down (refund, release…), and it ends cancelled. This cannot be taken back.';
    if (!(await h.confirmAction(text))) return;
    try {
      const result = await h.api('/admin/sagas/' + saga.id + '/cancel', { method: 'POST', body: JSON.stringify(reason ? { reason } : {}) });
      h.flash('Cancel of saga ' + saga.id + ' requested: undone from step ' + result.step + ' down');
    } catch (error) {
      h.flash('cancel failed: ' + error.message, true);
    }
    view.shown = '';
    await h.refresh();
  }

  async function retry(saga) {
    const text = 'Retry saga ' + saga.id + ' (' + saga.type + ', order ' + saga.correlationId + ')? The coordinator sends the '
      + 'compensation of step ' + saga.step + ' again, with the same idempotency key. Fix the cause first (' + (saga.lastError || 'no error recorded') + ').';
    if (!(await h.confirmAction(text))) return;
    try {
      const result = await h.api('/admin/sagas/' + saga.id + '/retry', { method: 'POST', body: '{}' });
      h.flash('Retry of saga ' + saga.id + ' scheduled: step ' + result.step + ' is compensated again');
    } catch (error) {
      h.flash('retry failed: ' + error.message, true);
    }
    view.shown = '';
    await h.refresh();
  }

  async function showDetail(id) {
    const saga = await h.api('/admin/sagas/' + encodeURIComponent(id));
    const text = JSON.stringify(saga);
    if (text === view.shown) return;
    view.shown = text;
    h.$('saga-detail').hidden = false;
    h.$('saga-detail-id').textContent = saga.id;
    h.$('saga-detail-fields').replaceChildren(h.table([{ title: 'field', key: 'name' }, { title: 'value', key: 'value' }], [
      ['type', saga.type], ['order (correlation id)', saga.correlationId], ['state', stateOf(saga)], ['step', saga.step],
      ['attempts of the current command', saga.attempts], ['deadline', saga.deadline ? h.time(saga.deadline) + ' (' + h.ago(saga.deadline) + ')' : 'none'],
      [failureLabel(saga), saga.failure || ''], lastError(saga), ['refusals of the current compensation', saga.refusals],
      ['cancelled by', saga.cancellation || ''], ['started by event', saga.startEventId],
      ['created', h.time(saga.createdAt)], ['updated', h.time(saga.updatedAt)], ['ended', saga.endedAt ? h.time(saga.endedAt) : ''],
    ].map(([name, value]) => ({ name, value })), (row) => ({ 'data-field': row.name })));
    h.$('saga-detail-actions').replaceChildren(actions(saga, true));
    h.$('saga-history').replaceChildren(h.table([
      { title: '#', key: 'seq', numeric: true },
      { title: 'at', key: 'at', class: () => 'nowrap', render: (row) => h.time(row.at) },
      { title: 'step', key: 'step', class: () => 'nowrap' }, { title: 'phase', key: 'phase' }, { title: 'event', key: 'event', class: () => 'nowrap' },
      { title: 'state after', key: 'state', render: (row) => h.el('span', { class: 'state-' + row.state }, row.state) },
      { title: 'caused by', key: 'causeType', render: (row) => h.el('span', { title: row.causeId || '' }, row.causeType || '') },
      { title: 'sent', key: 'sentType', render: (row) => h.el('span', { title: row.sentId || '' }, row.sentType || '') },
      { title: 'detail', key: 'detail' },
    ], saga.history, (row) => ({ 'data-seq': row.seq, 'data-event': row.event })));
    h.$('saga-data').textContent = JSON.stringify({ data: saga.data, results: saga.results }, null, 2);
  }

  async function load(id) {
    const query = new URLSearchParams();
    if (view.state) query.set('state', view.state);
    if (view.type) query.set('type', view.type);
    if (view.correlationId) query.set('correlationId', view.correlationId);
    const { items, total, byState } = await h.api('/admin/sagas?' + query);
    const count = (state) => (byState.find((row) => row.state === state) || { count: 0 }).count;
    h.$('saga-states').replaceChildren(...['failed', 'compensating', 'running', 'compensated', 'cancelled', 'completed'].map((state) =>
      h.el('button', { class: 'card' + (state === 'failed' && count(state) ? ' bad' : '') + (view.state === state ? ' selected' : ''), 'data-state': state,
        onclick: () => { view.state = view.state === state ? '' : state; h.$('saga-state').value = view.state; h.refresh(); } },
        h.el('b', {}, String(count(state))), state)));
    h.$('saga-count').textContent = items.length + ' of ' + total;
    h.$('sagas').replaceChildren(h.table([
      { title: 'updated', key: 'updatedAt', class: () => 'nowrap', render: (row) => h.time(row.updatedAt) },
      { title: 'type · order', key: 'type', render: (row) => [row.type, h.el('span', { class: 'sub' }, row.correlationId)] },
      { title: 'state', key: 'state', render: stateOf },
      { title: 'step', key: 'step' },
      { title: 'attempts', key: 'attempts', numeric: true },
      { title: 'failure · last error', key: 'lastError', class: () => 'message', render: (row) => ended(row)
        ? h.el('span', { title: (row.failure || '') + (row.lastError ? ' / earlier: ' + row.lastError : '') }, row.failure || '',
          row.lastError ? h.el('span', { class: 'sub history' }, 'earlier: ' + row.lastError) : null)
        : h.el('span', { title: (row.failure || '') + ' / ' + (row.lastError || '') }, row.failure || '', h.el('span', { class: 'sub' }, row.lastError || '')) },
      { title: '', key: 'actions', render: (row) => actions(row, false) },
    ], items, (row) => ({ 'data-saga': row.id, 'data-state': row.state })));
    if (id) await showDetail(id); else h.$('saga-detail').hidden = true;
  }

  h.$('saga-filter').addEventListener('submit', (event) => {
    event.preventDefault();
    Object.assign(view, { state: h.$('saga-state').value, type: h.$('saga-type').value.trim(), correlationId: h.$('saga-correlation').value.trim() });
    h.refresh();
  });
  h.page({
    id: 'sagas',
    show(id) { view.shown = ''; view.scroll = Boolean(id); },
    async refresh(id) {
      await load(id);
      if (id && view.scroll) { view.scroll = false; h.$('saga-detail').scrollIntoView(); }
    },
  });
})();
`,
};
