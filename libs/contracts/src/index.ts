export * from './cloudevent';
export * from './event-registry';
export * from './headers';
export * from './topics';
export * from './events/shared/order-fields';
export * from './events/shop-order-cancelled-v1/shop-order-cancelled-v1.event';
export * from './events/shop-order-paid-v1/shop-order-paid-v1.event';
export * from './events/shop-order-placed-v1/shop-order-placed-v1.event';
