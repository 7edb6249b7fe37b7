import { useTestDataSource } from '@app/testing';
import { randomUUID } from 'node:crypto';
import { ShipmentsRepository } from '../shipping/shipments.repository';
import { ChargeIntent, PaymentsRepository } from './payments.repository';

const charge = (sagaId = randomUUID()): ChargeIntent => ({
  sagaId,
  orderId: `ord-${sagaId}`,
  amount: 4200,
  currency: 'EUR',
  chargeKey: `${sagaId}:charge-card:action`,
});

describe('the participants’ intents, many in one statement (real Postgres)', () => {
  const db = useTestDataSource('intents-test', 2);

  it('charges: a new payment, one more call of one still charging, one charged and one declined as they are', async () => {
    const [again, charged, declined] = [charge(), charge(), charge()];
    await PaymentsRepository.recordChargeIntents(db.dataSource, [again, charged, declined]);
    await db.dataSource.transaction((manager) =>
      PaymentsRepository.markCharged(manager, [{ sagaId: charged.sagaId, chargeId: 'ch_1' }]),
    );
    await PaymentsRepository.markDeclined(db.dataSource, declined.sagaId, 'card declined');

    const fresh = charge();
    const states = await PaymentsRepository.recordChargeIntents(db.dataSource, [fresh, again, charged, declined]);
    expect(states.size).toBe(4);
    expect(states.get(fresh.sagaId)).toMatchObject({ status: 'charging', chargeCalls: 1, inserted: true });
    expect(states.get(again.sagaId)).toMatchObject({ status: 'charging', chargeCalls: 2, inserted: false });
    expect(states.get(charged.sagaId)).toMatchObject({ status: 'charged', chargeId: 'ch_1', chargeCalls: 1 });
    expect(states.get(declined.sagaId)).toMatchObject({ status: 'declined', reason: 'card declined' });
    const [{ count }] = await db.dataSource.query(`SELECT count(*)::int AS count FROM payments`);
    expect(count).toBe(4);
  });

  it('shipments: a new one, one more call of one still creating, one created as it is', async () => {
    const intent = () => {
      const sagaId = randomUUID();
      return { sagaId, orderId: `ord-${sagaId}`, createKey: `${sagaId}:create-shipment:action` };
    };
    const [again, created, fresh] = [intent(), intent(), intent()];
    await ShipmentsRepository.recordCreateIntents(db.dataSource, [again, created]);
    await db.dataSource.transaction((manager) =>
      ShipmentsRepository.markCreated(manager, [{ sagaId: created.sagaId, shipmentId: 'shp_1' }]),
    );

    const states = await ShipmentsRepository.recordCreateIntents(db.dataSource, [fresh, again, created]);
    expect(states.get(fresh.sagaId)).toMatchObject({ status: 'creating', createCalls: 1 });
    expect(states.get(again.sagaId)).toMatchObject({ status: 'creating', createCalls: 2 });
    expect(states.get(created.sagaId)).toMatchObject({ status: 'created', shipmentId: 'shp_1', createCalls: 1 });
  });
});
