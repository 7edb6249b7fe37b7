import { ConsumerContext } from '@app/consumer-runtime';
import {
  CloudEvent,
  SHIPPING_SHIPMENT_CANCELLATION_FAILED_V1,
  SHIPPING_SHIPMENT_CANCELLED_V1,
  ShippingCancelShipmentV1,
} from '@app/contracts';
import { queueSagaReply } from '@app/saga';
import { Injectable } from '@nestjs/common';
import { ConsumerServiceDeps } from '../consumer-service.deps';
import { SHIPPING_SOURCE } from './create-shipment.usecase';
import { ShipmentRejectedError, ShippingProviderClient } from './shipping-provider.client';
import { ShipmentsRepository } from './shipments.repository';

/**
 * Cancels the saga's shipment, idempotently (a shipment whose create call timed out may exist): intent first, the
 * carrier's cancellation by the create call's key, then `cancelled` and the reply. With no shipment yet a `voided`
 * row answers at once and refuses a create that arrives later.
 */
@Injectable()
export class CancelShipmentUseCase {
  constructor(
    private readonly deps: ConsumerServiceDeps,
    private readonly carrier: ShippingProviderClient,
  ) {}

  async execute(command: CloudEvent<ShippingCancelShipmentV1>, ctx: ConsumerContext): Promise<void> {
    const { sagaId, orderId, idempotencyKey } = command.data;
    const reply = (type: string, data: Record<string, unknown> = {}) =>
      queueSagaReply(ctx, command, type, SHIPPING_SOURCE, { orderId, ...data });
    const shipment = await ShipmentsRepository.recordCancelIntent(this.deps.bookkeeping, {
      sagaId,
      orderId,
      cancelKey: idempotencyKey,
    });
    if (shipment.status !== 'cancelling') return reply(SHIPPING_SHIPMENT_CANCELLED_V1);
    try {
      await this.carrier.cancel({ shipmentKey: shipment.createKey!, reference: orderId }, idempotencyKey);
    } catch (error) {
      if (!(error instanceof ShipmentRejectedError)) throw error;
      return reply(SHIPPING_SHIPMENT_CANCELLATION_FAILED_V1, { reason: error.message });
    }
    await ShipmentsRepository.markCancelled(this.deps.bookkeeping, sagaId);
    return reply(SHIPPING_SHIPMENT_CANCELLED_V1);
  }
}
