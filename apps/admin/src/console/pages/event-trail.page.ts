import { ConsolePage } from '../console-parts';

/**
 * One event's whole trail (`#/events/<event id | sender event id | aggregate id>`): received, queued, published, each
 * group's processing, dead letters with their replays and who ran them, the agent's task, saga transitions and
 * outbound deliveries with their attempts, as one timeline. A dead
 * letter still dead can be replayed from here, after a confirmation.
 */
export const eventTrailPage: ConsolePage = {
  id: 'events',
  title: 'Event trail',
  markup: `
<section>
  <h2>Event trail <span id="trail-ref"></span></h2>
  <div id="trail"><p>Find an event by its id, the sender's event id or its aggregate id (the box at the top), or open
  one from a dead letter.</p></div>
</section>`,
  script: `
(() => {
  const h = hookrail;
  let shown = '';

  function head(event) {
    const fact = (label, value) => value ? h.el('span', {}, label + ' ', h.el('b', {}, value)) : null;
    return h.el('div', { class: 'event-head' },
      fact('event', event.id), fact('type', event.type), fact('from', event.source), fact('aggregate', event.aggregateId),
      fact('sender id', event.senderEventId), fact('received', event.receivedAt ? h.time(event.receivedAt) : 'not received: written by a service'),
      h.el('span', {}, 'matched by ' + event.matchedBy.join(', ')));
  }

  function step(entry) {
    const replayable = entry.step === 'dead-lettered' && entry.detail.status === 'dead';
    return h.el('li', { class: 'level-' + entry.level, 'data-step': entry.step, 'data-source': entry.source, 'data-group': entry.group },
      h.el('span', { class: 'when' }, h.time(entry.at)),
      h.el('span', { class: 'step' }, entry.step),
      entry.summary,
      replayable ? [' ', h.el('button', { 'data-action': 'replay', 'data-group': entry.group, onclick: () => h.change('replay', { id: entry.deadLetterId, group: entry.group }) }, 'Replay')] : null,
      entry.deadLetterId ? [' ', h.el('a', { href: '#/dead-letters/' + encodeURIComponent(entry.group) }, 'dead letters')] : null,
      entry.detail.sagaId ? [' ', h.el('a', { href: '#/sagas/' + entry.detail.sagaId, 'data-link': 'saga' }, 'saga')] : null,
      entry.detail.endpointId ? [' ', h.el('a', { href: '#/webhooks/' + entry.detail.endpointId, 'data-link': 'deliveries' }, 'deliveries')] : null,
      h.el('details', {}, h.el('summary', {}, 'details'), h.el('pre', {}, JSON.stringify(entry.detail, null, 2))));
  }

  h.page({
    id: 'events',
    show(ref) {
      shown = '';
      h.$('find-event-ref').value = ref || '';
    },
    async refresh(ref) {
      h.$('trail-ref').textContent = ref ? '"' + ref + '"' : '';
      if (!ref) return;
      let answer;
      try {
        answer = await h.api('/admin/events/' + encodeURIComponent(ref));
      } catch (error) {
        shown = '';
        return h.$('trail').replaceChildren(h.el('p', { id: 'trail-missing' }, error.status === 404 ? 'No event matches ' + ref + '.' : 'could not load the trail: ' + error.message));
      }
      const text = JSON.stringify(answer);
      if (text === shown) return;
      shown = text;
      h.$('trail').replaceChildren(...answer.events.map((event) => h.el('article', { 'data-event': event.id },
        head(event),
        h.el('ol', { class: 'timeline' }, event.trail.map(step)),
        h.el('p', {}, 'From a terminal: ', h.el('code', {}, 'hookrail trace ' + event.id)))));
    },
  });
})();
`,
};
