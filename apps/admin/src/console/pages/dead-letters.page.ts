import { ConsolePage } from '../console-parts';

/**
 * Dead letters grouped by error class, the parked keys (each head dead letter with the events waiting behind it:
 * replay, release or purge the key), the list (with each group's owner and, for a head, how many events wait behind
 * it; `parked` lists the waiting events themselves), and a detail view with error, payload, headers, the event's trail,
 * and replay or purge after a confirmation. `#/dead-letters/<group>` filters by group.
 */
export const deadLettersPage: ConsolePage = {
  id: 'dead-letters',
  title: 'Dead letters',
  markup: `
<section>
  <h2>Dead letters by error class</h2>
  <div id="classes"></div>
</section>
<section>
  <h2>Parked keys</h2>
  <p class="sub">A group that keeps each key's order holds the key's later events behind its dead letter. Replay the dead
  letter after the fix (they follow, in order), release the key (purge the dead letter: they are applied, in order), or
  purge the whole key (none of them is applied).</p>
  <div id="parked-keys"></div>
</section>
<section>
  <h2>Dead letters</h2>
  <p>
    <label>Status <select id="status">
      <option value="">any</option><option value="dead">dead</option><option value="replaying">replaying</option>
      <option value="parked">parked</option><option value="resolved">resolved</option><option value="purged">purged</option>
    </select></label>
    <span id="filter"></span>
  </p>
  <div id="dead-letters"></div>
</section>
<section id="detail" hidden>
  <h2>Dead letter <span id="detail-id"></span> <button class="link" id="detail-close">close</button></h2>
  <div id="detail-fields"></div>
  <p id="detail-actions"></p>
  <h3>Error</h3><pre id="detail-error"></pre>
  <h3>Payload</h3><pre id="detail-payload"></pre>
  <h3>Headers</h3><pre id="detail-headers"></pre>
</section>`,
  script: `
(() => {
  const h = hookrail;
  const view = { status: '', errorClass: '', group: '', detail: null, waiting: new Map() };

  function actions(row, inDetail) {
    const cell = h.el('span', {});
    const waiting = view.waiting.get(row.id) || 0;
    if (!inDetail) cell.append(h.el('button', { class: 'link', 'data-action': 'show', onclick: () => showDetail(row.id) }, 'details'));
    if (row.eventId) cell.append(' ', h.el('a', { href: '#/events/' + encodeURIComponent(row.eventId), 'data-action': 'trail' }, 'trail'));
    if (row.status === 'dead') {
      cell.append(' ', h.el('button', { 'data-action': 'replay', 'data-group': row.group, onclick: () => h.change('replay', row, waiting) }, 'Replay'));
      cell.append(' ', h.el('button', { 'data-action': 'purge', 'data-group': row.group, onclick: () => h.change('purge', row, waiting) }, 'Purge'));
    }
    return cell;
  }

  /** Give up on a whole key: its dead letter and every event parked behind it purged, the key released. */
  async function purgeKey(parked) {
    const question = 'Purge key ' + parked.key + ' of group ' + parked.group + '? Its dead letter ' + parked.headDeadLetterId
      + ' and the ' + parked.parkedEvents + ' event(s) parked behind it are purged: none of them is applied, and the key is released.';
    if (!(await h.confirmAction(question))) return;
    try {
      const result = await h.api('/admin/parked-keys/purge', { method: 'POST', body: JSON.stringify({ group: parked.group, key: parked.key, confirm: true }) });
      h.flash(result.wasParked ? 'Purged key ' + parked.key + ': ' + result.purged.length + ' dead letter(s)' : 'Nothing changed: key ' + parked.key + ' is no longer parked', !result.wasParked);
    } catch (error) {
      h.flash('purging the key failed: ' + error.message, true);
    }
    await refresh();
  }

  function parkedKeyActions(parked) {
    const head = { id: parked.headDeadLetterId, group: parked.group, key: parked.key };
    const cell = h.el('span', {}, h.el('button', { class: 'link', 'data-action': 'show', onclick: () => showDetail(head.id) }, 'details'));
    if (parked.headStatus === 'dead') {
      cell.append(' ', h.el('button', { 'data-action': 'replay', 'data-group': parked.group, onclick: () => h.change('replay', head, parked.parkedEvents) }, 'Replay'));
      cell.append(' ', h.el('button', { 'data-action': 'release', 'data-group': parked.group, title: 'purge the dead letter; the events behind it are applied in order', onclick: () => h.change('purge', head, parked.parkedEvents) }, 'Release'));
    }
    cell.append(' ', h.el('button', { 'data-action': 'purge-key', 'data-group': parked.group, onclick: () => purgeKey(parked) }, 'Purge key'));
    return cell;
  }

  async function showDetail(id) {
    try {
      view.detail = await h.api('/admin/dead-letters/' + id);
    } catch (error) {
      return h.flash('could not load ' + id + ': ' + error.message, true);
    }
    const row = view.detail;
    h.$('detail').hidden = false;
    h.$('detail-id').textContent = row.id;
    h.$('detail-fields').replaceChildren(h.table([{ title: 'field', key: 'name' }, { title: 'value', key: 'value' }], [
      ['status', row.status], ['group', row.group], ['owner', h.owner(row.group)], ['event id', row.eventId], ['type', row.type],
      ['key', row.key], ['error class', row.errorClass], ['attempts', row.attempts], ['replays', row.replayCount],
      ['dead at', h.time(row.deadAt)], ['original', row.originalTopic + ' [' + row.originalPartition + '] @' + row.originalOffset],
      ['replays go to', row.replayTopic],
    ].concat(view.waiting.has(row.id) ? [['events parked behind it', view.waiting.get(row.id)]] : [])
      .concat(row.blockedBy ? [['parked behind', row.blockedBy]] : []).map(([name, value]) => ({ name, value }))));
    h.$('detail-actions').replaceChildren(actions(row, true));
    h.$('detail-error').textContent = row.errorStack || row.errorClass + ': ' + row.errorMessage;
    let payload = row.payload || '';
    try { payload = JSON.stringify(JSON.parse(payload), null, 2); } catch (error) { /* shown as received */ }
    h.$('detail-payload').textContent = payload;
    h.$('detail-headers').textContent = JSON.stringify(row.headers, null, 2);
    h.$('detail').scrollIntoView();
  }

  async function refresh() {
    const query = new URLSearchParams();
    if (view.status) query.set('status', view.status);
    if (view.errorClass) query.set('errorClass', view.errorClass);
    if (view.group) query.set('group', view.group);
    const [{ items, total, byErrorClass }, parkedKeys] = await Promise.all([
      h.api('/admin/dead-letters?' + query),
      h.api('/admin/parked-keys?limit=1000' + (view.group ? '&group=' + encodeURIComponent(view.group) : '')),
    ]);
    view.waiting = new Map(parkedKeys.items.map((parked) => [parked.headDeadLetterId, parked.parkedEvents]));
    h.$('parked-keys').replaceChildren(h.table([
      { title: 'parked since', key: 'parkedAt', class: () => 'nowrap', render: (row) => [h.time(row.parkedAt), h.el('span', { class: 'sub' }, h.ago(row.parkedAt))] },
      { title: 'group · owner', key: 'group', render: (row) => [row.group, h.el('span', { class: 'sub', title: h.owner(row.group) }, h.team(row.group))] },
      { title: 'key', key: 'key' },
      { title: 'waits behind', key: 'headDeadLetterId', render: (row) => [row.headErrorClass || 'not indexed yet', h.el('span', { class: 'sub', title: row.headErrorMessage || '' }, row.headDeadLetterId)] },
      { title: 'its status', key: 'headStatus', class: (row) => 'status-' + row.headStatus, render: (row) => row.headStatus || '–' },
      { title: 'events waiting', key: 'parkedEvents', numeric: true },
      { title: '', key: 'actions', render: parkedKeyActions },
    ], parkedKeys.items, (row) => ({ 'data-key': row.group + '/' + row.key })));
    h.$('classes').replaceChildren(h.table([
      { title: 'group', key: 'group' }, { title: 'owner', key: 'owner', render: (row) => h.owner(row.group) },
      { title: 'error class', key: 'errorClass' }, { title: 'dead', key: 'count', numeric: true },
      { title: 'last', key: 'lastDeadAt', class: () => 'nowrap', render: (row) => h.time(row.lastDeadAt) },
      { title: '', key: 'show', render: (row) => h.el('button', { class: 'link', onclick: () => { view.group = row.group; view.errorClass = row.errorClass; refresh(); } }, 'show') },
    ], byErrorClass));
    h.$('filter').replaceChildren(view.group || view.errorClass
      ? h.el('span', {}, (view.group ? 'group ' + view.group + ' ' : '') + (view.errorClass ? 'error class ' + view.errorClass + ' ' : ''),
          h.el('button', { class: 'link', onclick: () => { view.group = ''; view.errorClass = ''; h.go('dead-letters'); refresh(); } }, 'clear'))
      : '', ' ' + items.length + ' of ' + total);
    h.$('dead-letters').replaceChildren(h.table([
      { title: 'dead at', key: 'deadAt', class: () => 'nowrap', render: (row) => h.time(row.deadAt) },
      { title: 'group · owner', key: 'group', render: (row) => [row.group, h.el('span', { class: 'sub', title: h.owner(row.group) }, h.team(row.group))] },
      { title: 'event · key', key: 'type', render: (row) => [row.type || '', h.el('span', { class: 'sub' }, row.key || '')] },
      { title: 'error', key: 'errorClass' }, { title: 'message', key: 'errorMessage', class: () => 'message', render: (row) => h.el('span', { title: row.errorMessage }, row.errorMessage) },
      { title: 'replays', key: 'replayCount', numeric: true },
      { title: 'status', key: 'status', class: (row) => 'status-' + row.status, render: (row) => [row.status,
        view.waiting.has(row.id) ? h.el('span', { class: 'sub', 'data-waiting': view.waiting.get(row.id) }, view.waiting.get(row.id) + ' waiting behind') : null] },
      { title: '', key: 'actions', render: (row) => actions(row, false) },
    ], items, (row) => ({ 'data-id': row.id, 'data-status': row.status })));
    if (view.detail && !h.$('detail').hidden) {
      const fresh = items.find((row) => row.id === view.detail.id);
      if (fresh && fresh.status !== view.detail.status) showDetail(fresh.id);
    }
  }

  h.$('status').addEventListener('change', () => { view.status = h.$('status').value; refresh(); });
  h.$('detail-close').addEventListener('click', () => { h.$('detail').hidden = true; view.detail = null; });
  h.page({
    id: 'dead-letters',
    show(group) { if (group) { view.group = group; view.errorClass = ''; } },
    refresh,
  });
})();
`,
};
