import { DOM_HELPERS_SCRIPT } from './console-dom.script';

/**
 * The console's runtime, `window.hookrail`: the shared DOM helpers (console-dom.script.ts), the API client (bearer
 * token from sessionStorage), the confirmation dialog, dead-letter actions, hash routing (`#/<page>/<param>`) and the
 * 2-second refresh of the page on screen. Who is signed in comes from /admin/whoami: an action (an element with
 * `data-action`, and `data-group` when it acts on one group) that the token may not take is hidden, as the API would
 * refuse it. Pages and panels register themselves with it; `hookrail.start()` runs after all of them. Every value
 * from the API is put in the page as text (textContent), never as HTML.
 */
export const CONSOLE_CORE_SCRIPT = `
(() => {
${DOM_HELPERS_SCRIPT}
  const state = {
    token: sessionStorage.getItem('hookrail.token'),
    operator: sessionStorage.getItem('hookrail.operator') || '',
    groups: [],
    me: null,
  };
  /** What each action needs of the token; an action not listed is reading, which any console token may do. */
  const NEEDS = {
    replay: 'operate', release: 'operate', retry: 'operate', cancel: 'operate', disable: 'operate', enable: 'operate',
    'replay-since': 'operate', purge: 'administer', 'revoke-token': 'administer', 'portal-link': 'administer', 'delete-customer': 'administer', 'purge-key': 'administer', rotate: 'administer', create: 'administer',
  };

  /** Whether the signed-in token may take an action needing \`need\` (on \`group\`): the API's own rule. */
  function may(need, group) {
    const me = state.me;
    if (!me || !me.may[need]) return false;
    return !group || !me.groups || me.groups.includes(group);
  }

  function applyAccess() {
    for (const node of document.querySelectorAll('[data-action]')) {
      const need = NEEDS[node.dataset.action];
      if (need) node.hidden = !may(need, node.dataset.group);
    }
    for (const node of document.querySelectorAll('[data-need]')) node.hidden = !may(node.dataset.need);
  }
  new MutationObserver(applyAccess).observe(document.documentElement, { childList: true, subtree: true });
  const pages = {};
  const panels = [];

  function ago(value) {
    if (!value) return '';
    const seconds = Math.round((Date.now() - new Date(value).getTime()) / 1000);
    if (seconds < 0) return 'in ' + duration(-seconds);
    return duration(seconds) + ' ago';
  }

  function duration(seconds) {
    if (seconds < 90) return seconds + ' s';
    if (seconds < 5400) return Math.round(seconds / 60) + ' min';
    if (seconds < 172800) return Math.round(seconds / 3600) + ' h';
    return Math.round(seconds / 86400) + ' d';
  }

  async function api(path, options) {
    const headers = { authorization: 'Bearer ' + state.token };
    if (state.operator) headers['x-hookrail-operator'] = state.operator;
    if (options && options.body) headers['content-type'] = 'application/json';
    const response = await fetch(path, Object.assign({}, options, { headers }));
    if (response.status === 401) {
      signOut('The token was not accepted.');
      throw new Error('unauthorized');
    }
    const body = await response.json();
    if (!response.ok) throw Object.assign(new Error(body.message || response.statusText), { status: response.status, body });
    return body;
  }

  function flash(text, isError) {
    $('flash').textContent = text;
    $('flash').className = isError ? 'error' : '';
  }

  /** The owner of a group as its service declares it: "team (contact)", or '' when no process has started it yet. */
  function owner(group) {
    const found = state.groups.find((candidate) => candidate.group === group);
    return found && found.owner ? found.owner.team + ' (' + found.owner.contact + ')' : '';
  }

  /** The team that owns a group, or ''. */
  function team(group) {
    const found = state.groups.find((candidate) => candidate.group === group);
    return found && found.owner ? found.owner.team : '';
  }

  /** What waits behind a dead letter that holds a parked key, and what the action does to it. */
  function behind(action, key, waiting) {
    if (!waiting) return '';
    return ' ' + waiting + ' parked event(s) of key ' + key + ' wait behind it: ' + (action === 'replay'
      ? 'once it is applied they are replayed, in order.'
      : 'they are then applied, in order (the key is released).');
  }

  /**
   * Replay or purge one dead letter, after the operator confirmed it. \`waiting\`: the events parked behind it, when the
   * page knows; a purge the API refuses because events wait that the page did not know of asks again, saying how many.
   */
  async function change(action, deadLetter, waiting) {
    const target = action === 'replay'
      ? 'to ' + deadLetter.group + '.replay (only the group ' + deadLetter.group + ' receives it)'
      : 'for good (it stays listed as purged until retention deletes it)';
    const verb = action === 'replay' ? 'Replay' : 'Purge';
    if (!(await confirmAction(verb + ' dead letter ' + deadLetter.id + ' ' + target + '?' + behind(action, deadLetter.key, waiting)))) return false;
    const post = (body) => api('/admin/dead-letters/' + deadLetter.id + '/' + action, { method: 'POST', body: JSON.stringify(body) });
    try {
      let result;
      try {
        result = await post(action === 'purge' && waiting ? { confirm: true } : {});
      } catch (error) {
        if (error.status !== 409 || !error.body || error.body.error !== 'confirmation_required') throw error;
        const parked = error.body.parked.reduce((sum, entry) => sum + entry.parkedEvents, 0);
        if (!(await confirmAction('Purge dead letter ' + deadLetter.id + ' anyway?' + behind('purge', deadLetter.key, parked)))) return false;
        result = await post({ confirm: true });
      }
      const done = action === 'replay' ? result.replayed : result.purged;
      flash(done.length ? (action === 'replay' ? 'Replayed ' : 'Purged ') + deadLetter.id : 'Nothing changed: the dead letter is no longer in status dead', done.length === 0);
    } catch (error) {
      flash(action + ' failed: ' + error.message, true);
    }
    await refresh();
    return true;
  }

  function route() {
    const parts = location.hash.replace('#', '').split('/').filter(Boolean);
    const id = pages[parts[0]] ? parts[0] : 'overview';
    return { id, param: parts.length > 1 ? decodeURIComponent(parts.slice(1).join('/')) : '' };
  }

  function go(id, param) {
    location.hash = '#/' + id + (param ? '/' + encodeURIComponent(param) : '');
  }

  // A refresh asked for while one is in flight (an operator's click during the 2-second one) runs right after it,
  // on the view as it is then, instead of being dropped.
  let refreshing = false;
  let refreshAgain = false;
  async function refresh() {
    if (!state.token) return;
    if (refreshing) {
      refreshAgain = true;
      return;
    }
    refreshing = true;
    try {
      do {
        refreshAgain = false;
        try {
          const current = route();
          try { state.groups = await api('/admin/consumer-groups'); } catch (error) { /* owners shown when available */ }
          await pages[current.id].refresh(current.param);
        } catch (error) {
          if (error.message !== 'unauthorized') flash('could not refresh: ' + error.message, true);
        }
      } while (refreshAgain && state.token);
    } finally {
      refreshing = false;
    }
  }

  let shownPage = null;
  function showPage() {
    const current = route();
    // A message about what was done on one page does not follow the operator to the next.
    if (current.id !== shownPage) flash('');
    shownPage = current.id;
    for (const section of document.querySelectorAll('.page')) section.hidden = section.dataset.page !== current.id;
    for (const link of document.querySelectorAll('header nav a')) link.classList.toggle('active', link.dataset.page === current.id);
    if (pages[current.id].show) pages[current.id].show(current.param);
    refresh();
  }

  function signOut(message) {
    sessionStorage.removeItem('hookrail.token');
    state.token = null;
    state.me = null;
    $('app').hidden = true;
    $('sign-out').hidden = true;
    $('nav').hidden = true;
    $('find-event').hidden = true;
    $('who').textContent = '';
    $('login').hidden = false;
    $('login-error').textContent = message || '';
  }

  async function open() {
    try {
      state.me = await api('/admin/whoami');
    } catch (error) {
      if (error.message !== 'unauthorized') signOut('This token may not open the console: ' + error.message);
      return;
    }
    const me = state.me;
    $('login').hidden = true;
    $('app').hidden = false;
    $('nav').hidden = false;
    $('find-event').hidden = false;
    $('sign-out').hidden = false;
    $('who').textContent = 'signed in as ' + me.name + (state.operator ? ' (' + state.operator + ')' : '') + ' · ' +
      me.role + (me.groups ? ' of ' + me.groups.join(', ') : '');
    applyAccess();
    showPage();
  }

  function start() {
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
    $('find-event').addEventListener('submit', (event) => {
      event.preventDefault();
      const ref = $('find-event-ref').value.trim();
      if (ref) go('events', ref);
    });
    window.addEventListener('hashchange', () => { if (state.token) showPage(); });
    setInterval(() => refresh(), 2000);
    if (state.token) open(); else signOut();
  }

  window.hookrail = {
    $, el, time, ago, duration, table, api, flash, confirmAction, owner, team, change, go, refresh, start, state, panels, may,
    page: (definition) => { pages[definition.id] = definition; },
    panel: (definition) => { panels.push(definition); },
  };
})();
`;
