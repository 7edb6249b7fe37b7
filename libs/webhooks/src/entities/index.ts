export * from './customer-token.entity';
export * from './webhook-delivery-attempt.entity';
export * from './webhook-delivery.entity';
export * from './webhook-endpoint-secret.entity';
export * from './webhook-endpoint.entity';
export * from './webhook-customer.entity';
