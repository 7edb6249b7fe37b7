import { ConsolePage } from '../console-parts';

/**
 * Outbound webhooks' customers: each with its uid (what its events carry in `customerid`) and its endpoints; add one,
 * open a portal link for it (shown once, it opens once), delete one with its endpoints. The admin role makes changes.
 */
export const customersPage: ConsolePage = {
  id: 'customers',
  title: 'Customers',
  markup: `
<section>
  <h2>Customers of outbound webhooks</h2>
  <p>A customer's endpoints get its events only: those whose <code>customerid</code> is its uid. A portal link opens the
  customer's own page once, for 15 minutes: its endpoints, deliveries and replays, nothing of anyone else's.</p>
  <div id="customers"></div>
  <details id="customer-add-box" data-action="create"><summary>Add a customer</summary>
    <form id="customer-add" class="filters">
      <label>uid <input id="customer-uid" size="16" maxlength="200" required placeholder="your id for it"></label>
      <label>Name <input id="customer-name" size="20" maxlength="200" required></label>
      <button type="submit">Add…</button>
    </form>
  </details>
</section>
<section id="customer-link-box" class="secret" hidden>
  <h2>Portal link for <span id="customer-link-uid"></span></h2>
  <p>Give it to the customer now: it opens once, until <span id="customer-link-expires"></span>.</p>
  <p><code id="customer-link"></code> <button id="customer-link-done">Done, hide it</button></p>
</section>`,
  script: `
(() => {
  const h = hookrail;
  async function change(question, path, method, body, done) {
    if (!(await h.confirmAction(question))) return;
    try {
      done(await h.api(path, { method, body: body === undefined ? undefined : JSON.stringify(body) }));
    } catch (error) {
      h.flash(error.message, true);
    }
    h.refresh();
  }
  const base = (customer) => '/admin/customers/' + encodeURIComponent(customer.id);
  h.$('customer-add').addEventListener('submit', (event) => {
    event.preventDefault();
    const body = { uid: h.$('customer-uid').value.trim(), name: h.$('customer-name').value.trim() };
    change('Add customer ' + body.uid + ' (' + body.name + ')?', '/admin/customers', 'POST', body, () => {
      h.$('customer-add').reset();
      h.flash('Added customer ' + body.uid);
    });
  });
  h.$('customer-link-done').addEventListener('click', () => { h.$('customer-link').textContent = ''; h.$('customer-link-box').hidden = true; });
  h.page({
    id: 'customers',
    async refresh() {
      const customers = await h.api('/admin/customers');
      h.$('customers').replaceChildren(h.table([
        { title: 'uid', key: 'uid', class: () => 'nowrap' },
        { title: 'name', key: 'name' },
        { title: 'endpoints', key: 'endpoints', numeric: true },
        { title: 'added', key: 'createdAt', class: () => 'nowrap', render: (customer) => h.ago(customer.createdAt) },
        { title: '', key: 'actions', render: (customer) => h.el('span', {},
          h.el('button', { 'data-action': 'portal-link', onclick: () => change('Make a portal link for ' + customer.uid + '? It opens the customer\\'s page once.',
            base(customer) + '/portal-links', 'POST', {}, (link) => {
              h.$('customer-link-uid').textContent = customer.uid;
              h.$('customer-link').textContent = link.url;
              h.$('customer-link-expires').textContent = h.time(link.expiresAt);
              h.$('customer-link-box').hidden = false;
            }) }, 'Portal link'), ' ',
          h.el('button', { 'data-action': 'delete-customer', onclick: () => change('Delete customer ' + customer.uid + ' with its '
            + customer.endpoints + ' endpoint(s), their deliveries and its tokens?', base(customer), 'DELETE', undefined,
            () => h.flash('Deleted customer ' + customer.uid)) }, 'Delete')) },
      ], customers, (customer) => ({ 'data-customer': customer.uid })));
    },
  });
})();
`,
};
