import { ConsolePage } from '../console-parts';

/**
 * Operator tokens (the admin role only; the navigation hides the page from other tokens): each with its role, groups,
 * expiry and state; make one (shown once) or revoke one, each after a confirmation.
 */
export const tokensPage: ConsolePage = {
  id: 'tokens',
  title: 'Tokens',
  needs: 'administer',
  markup: `
<section>
  <h2>Operator tokens</h2>
  <p>A token opens the operator API and this console with its role, limited to its groups when it has any. Only its
  digest is stored: it is shown once, when it is made. A revocation is refused from the next request on.</p>
  <div id="tokens"></div>
  <details id="token-add-box"><summary>Make a token</summary>
    <form id="token-add" class="filters">
      <label>Name <input id="token-name" size="16" maxlength="100" required pattern="[A-Za-z0-9_.@-]+"></label>
      <label>Role <select id="token-role"><option>viewer</option><option>operator</option><option>admin</option>
        <option>status</option></select></label>
      <label>Groups <input id="token-groups" size="16" maxlength="500" placeholder="all, or ledger, payments"></label>
      <label>Expires <input id="token-expires" size="8" maxlength="40" value="90d" placeholder="90d, 12h or ISO"></label>
      <button type="submit">Make…</button>
    </form>
  </details>
</section>
<section id="token-secret-box" class="secret" hidden>
  <h2>Token <span id="token-secret-name"></span></h2>
  <p>Shown this once: store it now. It is never shown again (revoke it and make another if it is lost).</p>
  <p><code id="token-secret"></code> <button id="token-secret-done">Done, hide it</button></p>
</section>`,
  script: `
(() => {
  const h = hookrail;
  async function change(question, path, body, done) {
    if (!(await h.confirmAction(question))) return;
    try {
      done(await h.api(path, { method: 'POST', body: JSON.stringify(body) }));
    } catch (error) {
      h.flash(error.message, true);
    }
    h.refresh();
  }
  h.$('token-add').addEventListener('submit', (event) => {
    event.preventDefault();
    const body = { name: h.$('token-name').value.trim(), role: h.$('token-role').value };
    const groups = h.$('token-groups').value.split(',').map((group) => group.trim()).filter(Boolean);
    if (groups.length) body.groups = groups;
    if (h.$('token-expires').value.trim()) body.expires = h.$('token-expires').value.trim();
    change('Make token ' + body.name + ' (' + body.role + (groups.length ? ' of ' + groups.join(', ') : '') + ')?', '/admin/tokens', body,
      (created) => {
        h.$('token-add').reset();
        h.$('token-secret-name').textContent = created.name;
        h.$('token-secret').textContent = created.token;
        h.$('token-secret-box').hidden = false;
        h.flash('Made token ' + created.name);
      });
  });
  h.$('token-secret-done').addEventListener('click', () => { h.$('token-secret').textContent = ''; h.$('token-secret-box').hidden = true; });
  h.page({
    id: 'tokens',
    async refresh() {
      const tokens = await h.api('/admin/tokens');
      h.$('tokens').replaceChildren(h.table([
        { title: 'name', key: 'name', class: () => 'nowrap' },
        { title: 'role', key: 'role' },
        { title: 'groups', key: 'groups', render: (token) => token.groups ? token.groups.join(', ') : 'all' },
        { title: 'sources', key: 'sources', render: (token) => token.role !== 'status' ? '' : token.sources ? token.sources.join(', ') : 'all' },
        { title: 'made', key: 'createdAt', class: () => 'nowrap', render: (token) => h.ago(token.createdAt) + ' by ' + token.createdBy },
        { title: 'expires', key: 'expiresAt', class: () => 'nowrap', render: (token) => token.expiresAt ? h.time(token.expiresAt) : 'never' },
        { title: 'state', key: 'state' },
        { title: '', key: 'actions', render: (token) => token.state !== 'live' ? '' : h.el('button', { 'data-action': 'revoke-token',
          onclick: () => change('Revoke token ' + token.name + '? Every request with it is refused from now on.',
            '/admin/tokens/' + encodeURIComponent(token.name) + '/revoke', {}, () => h.flash('Revoked token ' + token.name)) }, 'Revoke') },
      ], tokens, (token) => ({ 'data-token': token.name, 'data-state': token.state })));
    },
  });
})();
`,
};
