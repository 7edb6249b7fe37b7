export const DELIVERY_STATES = ['pending', 'sending', 'delivered', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];
export const ENDPOINT_STATES = ['enabled', 'disabled'] as const;
export type EndpointState = (typeof ENDPOINT_STATES)[number];
