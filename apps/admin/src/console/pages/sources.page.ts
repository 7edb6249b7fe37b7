import { ConsolePage } from '../console-parts';

/**
 * Sources: every sender (the configured webhook sources, `POST /events` as `cloudevents`, deliveries to names no
 * source has as `unknown`) with the rejected deliveries kept of it, counted by reason; `#/sources/<name>`: those
 * deliveries, newest first, each with its answer, headers (no credentials or signatures) and redacted body prefix.
 */
export const sourcesPage: ConsolePage = {
  id: 'sources',
  title: 'Sources',
  markup: `
<section>
  <h2>Sources</h2>
  <p>The newest <span id="sources-kept"></span> rejected deliveries of each sender are kept (any answer but 2xx):
  a bad signature, a timestamp outside the tolerance, data that breaks its schema, a body too large… Nothing of them
  is an event. The counter <code>hookrail_ingress_events_rejected_total{source,reason}</code> counts them all.</p>
  <div id="sources"></div>
</section>
<section id="source-detail" hidden>
  <h2>Rejected deliveries of <span id="source-detail-name"></span> <a class="link" href="#/sources">close</a></h2>
  <div id="source-rejections"></div>
  <div id="source-rejection" hidden>
    <h3>Delivery <span id="source-rejection-id"></span></h3>
    <p id="source-rejection-answer"></p>
    <h3>Details</h3><pre id="source-rejection-details"></pre>
    <h3>Headers (no credentials or signatures)</h3><pre id="source-rejection-headers"></pre>
    <h3>Body (<span id="source-rejection-bytes"></span> bytes; its start, secret-looking fields redacted)</h3><pre id="source-rejection-body"></pre>
  </div>
</section>`,
  script: `
(() => {
  const h = hookrail;
  const view = { shown: '', selected: '' };
  const reasons = (byReason) => Object.entries(byReason).sort((a, b) => b[1] - a[1]).map(([reason, count]) => reason + ' ×' + count).join(', ');
  const KIND = { webhook: '', cloudevents: 'POST /events', unknown: 'names no source has', removed: 'no longer configured' };

  function select(rejection) {
    view.selected = rejection.id;
    h.$('source-rejection').hidden = false;
    h.$('source-rejection-id').textContent = rejection.id + ' at ' + h.time(rejection.receivedAt);
    h.$('source-rejection-answer').textContent = rejection.status + ' ' + rejection.reason + ': ' + rejection.message + ' (' + rejection.path + ')';
    h.$('source-rejection-details').textContent = rejection.details ? JSON.stringify(rejection.details, null, 2) : 'none';
    h.$('source-rejection-headers').textContent = JSON.stringify(rejection.headers, null, 2);
    h.$('source-rejection-bytes').textContent = String(rejection.bodyBytes);
    h.$('source-rejection-body').textContent = rejection.bodyPrefix || '(empty, or refused unread)';
  }

  async function showDetail(name) {
    const { rejections } = await h.api('/admin/sources/' + encodeURIComponent(name) + '/rejections');
    const text = JSON.stringify(rejections);
    if (text === view.shown) return;
    view.shown = text;
    h.$('source-detail').hidden = false;
    h.$('source-detail-name').textContent = name;
    h.$('source-rejections').replaceChildren(h.table([
      { title: 'received', key: 'receivedAt', class: () => 'nowrap', render: (row) => h.time(row.receivedAt) + ' (' + h.ago(row.receivedAt) + ')' },
      { title: 'answer', key: 'status', class: () => 'nowrap', render: (row) => row.status + ' ' + row.reason },
      { title: 'message', key: 'message', class: () => 'message' },
      { title: 'path', key: 'path', class: () => 'nowrap' },
      { title: 'bytes', key: 'bodyBytes', numeric: true },
      { title: '', key: 'actions', render: (row) => h.el('button', { 'data-action': 'show', onclick: () => select(row) }, 'show') },
    ], rejections, (row) => ({ 'data-rejection': row.id, 'data-reason': row.reason })));
    const selected = rejections.find((row) => row.id === view.selected) || rejections[0];
    if (selected) select(selected); else h.$('source-rejection').hidden = true;
  }

  async function load(name) {
    const { keptPerSource, sources } = await h.api('/admin/sources');
    h.$('sources-kept').textContent = String(keptPerSource);
    h.$('sources').replaceChildren(h.table([
      { title: 'source', key: 'source', render: (row) => [row.source, KIND[row.kind] ? h.el('span', { class: 'sub' }, KIND[row.kind]) : null] },
      { title: 'scheme · topic', key: 'scheme', render: (row) => row.scheme ? [row.scheme, h.el('span', { class: 'sub' }, row.topic)] : '' },
      { title: 'rejected (kept)', key: 'kept', numeric: true },
      { title: 'by reason', key: 'byReason', class: () => 'message', render: (row) => reasons(row.byReason) },
      { title: 'last rejected', key: 'lastAt', class: () => 'nowrap', render: (row) => row.lastAt ? h.time(row.lastAt) + ' (' + h.ago(row.lastAt) + ')' : 'never' },
      { title: '', key: 'actions', render: (row) => row.kept ? h.el('a', { href: '#/sources/' + encodeURIComponent(row.source), 'data-action': 'show' }, 'deliveries') : '' },
    ], sources, (row) => ({ 'data-source': row.source, 'data-kind': row.kind, class: row.kept ? 'rejected' : undefined })));
    if (name) await showDetail(name); else h.$('source-detail').hidden = true;
  }

  h.page({
    id: 'sources',
    show() { view.shown = ''; view.selected = ''; },
    refresh: load,
  });
})();
`,
};
