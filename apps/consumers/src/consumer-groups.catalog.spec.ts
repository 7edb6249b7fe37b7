import 'reflect-metadata';
import { CONSUMER_GROUPS } from '@app/contracts';
import { describeConsumerGroups } from './consumer-groups.catalog';
import { CONSUMER_SERVICES } from './consumer-services';

describe('the services registry', () => {
  it('names each service by its group, and every group it runs is in CONSUMER_GROUPS (or it would never start)', () => {
    for (const [name, service] of Object.entries(CONSUMER_SERVICES)) {
      expect({ name, group: service.group }).toEqual({ name, group: name });
      expect({ group: name, listed: (CONSUMER_GROUPS as readonly string[]).includes(name) }).toEqual({
        group: name,
        listed: true,
      });
    }
  });

  it('describes each group for the catalogue: topics, owner and the types of its @EventPattern handlers', () => {
    expect(describeConsumerGroups()).toContainEqual({
      group: 'analytics',
      topics: ['shop.orders'],
      owner: { team: 'data', contact: 'data@example.com' },
      handles: ['shop.order.cancelled.v1', 'shop.order.paid.v1', 'shop.order.placed.v1'],
    });
    for (const group of describeConsumerGroups()) expect(group.handles.length).toBeGreaterThan(0);
  });
});
