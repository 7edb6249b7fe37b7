import { ConsumerContext } from '@app/consumer-runtime';
import {
  CloudEvent,
  SHIPPING_SHIPMENT_CREATED_V1,
  SHIPPING_SHIPMENT_CREATION_FAILED_V1,
  ShippingCreateShipmentV1,
} from '@app/contracts';
import { LOGGER } from '@app/logger';
import { dropExpiredAction, queueSagaReply } from '@app/saga';
import { Inject, Injectable } from '@nestjs/common';
import { Logger } from 'pino';
import { EntityManager } from 'typeorm';
import { ConsumerServiceDeps } from '../consumer-service.deps';
import { ProviderCallFault } from '../fault-injection/provider-call-fault';
import { ShipmentRejectedError, ShippingProviderClient } from './shipping-provider.client';
import { CreateIntent, ShipmentsRepository, ShipmentState } from './shipments.repository';
import { IntentBatch } from '../bookkeeping-query';

/** `created` for every shipment of the consumer's transaction, in one statement. */
const writeCreated = (manager: EntityManager, created: Array<{ sagaId: string; shipmentId: string }>) =>
  ShipmentsRepository.markCreated(manager, created);

export const SHIPPING_SOURCE = '/participants/shipping';

/**
 * Creates one shipment per saga: the intent (`creating`) commits first, the carrier is called with the step's
 * `Idempotency-Key`, then `created` (or `rejected`: a permanent refusal is a failure reply, not a dead letter) and the
 * reply in the consumer's transaction. A carrier that is down is retried by the runtime with the same key, until the
 * command's deadline: past it the command is dropped unapplied, so that the cancellation behind it is not held up.
 */
@Injectable()
export class CreateShipmentUseCase {
  private readonly fault: ProviderCallFault;
  /** The intents of commands applied at the same time, in one statement. */
  private readonly intents: IntentBatch<CreateIntent, ShipmentState>;

  constructor(
    private readonly deps: ConsumerServiceDeps,
    private readonly carrier: ShippingProviderClient,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.fault = new ProviderCallFault(deps.config.HOOKRAIL_FAULT_KILL_AFTER_PROVIDER_CALLS, logger);
    this.intents = new IntentBatch((intents) => ShipmentsRepository.recordCreateIntents(deps.bookkeeping, intents));
  }

  async execute(command: CloudEvent<ShippingCreateShipmentV1>, ctx: ConsumerContext): Promise<void> {
    if (dropExpiredAction(command, ctx)) return;
    const { sagaId, orderId, recipient, lines, idempotencyKey } = command.data;
    const reply = (type: string, data: Record<string, unknown>) =>
      queueSagaReply(ctx, command, type, SHIPPING_SOURCE, { orderId, ...data });
    const shipment = await this.intents.record({ sagaId, orderId, createKey: idempotencyKey });
    if (shipment.status === 'created') return reply(SHIPPING_SHIPMENT_CREATED_V1, { shipmentId: shipment.shipmentId });
    if (shipment.status !== 'creating') {
      const reason = shipment.reason ?? `the shipment is ${shipment.status}; not created`;
      return reply(SHIPPING_SHIPMENT_CREATION_FAILED_V1, { reason });
    }
    if (shipment.createCalls > 1)
      ctx.logger.info({ sagaId, call: shipment.createCalls }, 'creating the shipment again with the same key');

    let created: { shipmentId: string };
    try {
      created = await this.carrier.create(
        { reference: orderId, recipient, lines: lines.map(({ sku, quantity }) => ({ sku, quantity })) },
        idempotencyKey,
      );
    } catch (error) {
      if (!(error instanceof ShipmentRejectedError)) throw error;
      await ShipmentsRepository.markRejected(this.deps.bookkeeping, sagaId, error.message);
      return reply(SHIPPING_SHIPMENT_CREATION_FAILED_V1, { reason: error.message });
    }
    this.fault.called({ sagaId, eventId: command.id });
    ctx.write(writeCreated, { sagaId, shipmentId: created.shipmentId });
    return reply(SHIPPING_SHIPMENT_CREATED_V1, { shipmentId: created.shipmentId });
  }
}
