import { TOPICS } from '@app/contracts';
import { Module } from '@nestjs/common';
import { ConsumerServiceDeps } from '../consumer-service.deps';
import { WakeRelaysAfterCommit } from '../wake-relays-after-commit';
import { CancelShipmentUseCase } from './cancel-shipment.usecase';
import { CreateShipmentUseCase } from './create-shipment.usecase';
import { ShippingProviderClient } from './shipping-provider.client';
import { ShippingController } from './shipping.controller';
import { ShippingEnv } from './shipping.env';
import { ShipmentEntity } from './shipment.entity';

/**
 * The shipping participant: consumer group `shipping` creates and cancels shipments through the carrier's API, one
 * row per saga in `shipments`, and replies on the command's reply topic through the outbox.
 */
@Module({
  controllers: [ShippingController],
  providers: [
    WakeRelaysAfterCommit,
    CreateShipmentUseCase,
    CancelShipmentUseCase,
    {
      provide: ShippingProviderClient,
      inject: [ConsumerServiceDeps],
      useFactory: ({ config }: ConsumerServiceDeps<ShippingEnv>) =>
        new ShippingProviderClient({
          baseUrl: config.SHIPPING_PROVIDER_URL,
          apiKey: config.SHIPPING_PROVIDER_API_KEY,
          timeoutMs: config.SHIPPING_PROVIDER_TIMEOUT_MS,
        }),
    },
  ],
})
export class ShippingModule {}

export const SHIPPING_SERVICE = {
  group: 'shipping',
  topics: [TOPICS.shippingCommands],
  module: ShippingModule,
  env: ShippingEnv,
  entities: [ShipmentEntity],
  concurrency: 'key',
  owner: { team: 'logistics', contact: 'logistics@example.com' },
} as const;
