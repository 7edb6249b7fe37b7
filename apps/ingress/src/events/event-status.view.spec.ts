import { EventStatus, isFullStatus, limitToGroups, toSenderStatus } from './event-status.view';

const at = '2026-01-01T00:00:00.000Z';

const full: EventStatus = {
  id: 'e1',
  source: 'shop',
  type: 'shop.order.placed.v1',
  aggregateId: 'ord_1',
  receivedAt: at,
  status: 'parked',
  publishedAt: null,
  publishError: 'MESSAGE_TOO_LARGE',
  groups: [
    { group: 'ledger', status: 'processed', attempts: 1, lastError: null, updatedAt: at },
    { group: 'notifier', status: 'dead', attempts: 5, lastError: 'smtp.internal refused', updatedAt: at },
  ],
  agentTask: { state: 'failed', attempts: 2, lastError: 'ModelTimeout', nextAttemptAt: at, updatedAt: at },
  saga: {
    id: 's1',
    type: 'order-fulfilment',
    state: 'running',
    step: 'charge-card',
    attempts: 1,
    deadline: null,
    failure: null,
    lastError: 'card declined',
    updatedAt: at,
    history: [],
  },
  webhookDeliveries: [
    {
      endpointId: 'we_1',
      url: 'https://partner.example/hook',
      status: 'failed',
      attempts: 3,
      lastStatus: 500,
      lastError: 'HTTP 500',
      deliveredAt: null,
      updatedAt: at,
    },
  ],
};

describe('toSenderStatus', () => {
  it('keeps the id, state, times and each group’s state; drops every error, attempt, routing detail and delivery', () => {
    const sender = toSenderStatus(full);
    expect(sender).toEqual({
      id: 'e1',
      status: 'parked',
      receivedAt: at,
      publishedAt: null,
      groups: [
        { group: 'ledger', status: 'processed', updatedAt: at },
        { group: 'notifier', status: 'dead', updatedAt: at },
      ],
      agentTask: { state: 'failed', updatedAt: at },
      saga: { state: 'running', updatedAt: at },
    });
    expect(JSON.stringify(sender)).not.toMatch(/MESSAGE_TOO_LARGE|smtp|ModelTimeout|declined|partner|ord_1/);
    expect(isFullStatus(sender)).toBe(false);
    expect(isFullStatus(full)).toBe(true);
  });

  it('leaves out the agent task and the saga when the event has none', () => {
    const { agentTask: _task, saga: _saga, ...bare } = full;
    expect(toSenderStatus(bare)).not.toHaveProperty('agentTask');
    expect(toSenderStatus(bare)).not.toHaveProperty('saga');
  });
});

describe('limitToGroups', () => {
  it('keeps everything for a token without groups', () => {
    expect(limitToGroups(full, null)).toBe(full);
  });

  it('keeps only the token’s groups, and the parts whose group (agent, fulfilment, webhooks) is among them', () => {
    const ledger = limitToGroups(full, ['ledger']);
    expect(ledger.groups.map((row) => row.group)).toEqual(['ledger']);
    expect(ledger).not.toHaveProperty('agentTask');
    expect(ledger).not.toHaveProperty('saga');
    expect(ledger).not.toHaveProperty('webhookDeliveries');
    expect(full.groups).toHaveLength(2);

    const agent = limitToGroups(full, ['agent', 'webhooks']);
    expect(agent.groups).toEqual([]);
    expect(agent.agentTask).toEqual(full.agentTask);
    expect(agent.webhookDeliveries).toEqual(full.webhookDeliveries);
    expect(agent).not.toHaveProperty('saga');
  });
});
