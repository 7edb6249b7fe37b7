import { plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';
import { FULFILMENT_EVENT_TYPES } from './events/fulfilment-event-types';
import { fastCheckPlainValid, fastCheckValid } from './fast-check-valid';
import {
  SHOP_ORDER_CANCELLED_V1,
  ShopOrderCancelledV1,
} from './events/shop-order-cancelled-v1/shop-order-cancelled-v1.event';
import { SHOP_ORDER_PAID_V1, ShopOrderPaidV1 } from './events/shop-order-paid-v1/shop-order-paid-v1.event';
import { SHOP_ORDER_PLACED_V1, ShopOrderPlacedV1 } from './events/shop-order-placed-v1/shop-order-placed-v1.event';

type EventClass = new () => object;

/** Every versioned event type hookrail has a schema for. */
export const EVENT_TYPES: Readonly<Record<string, EventClass>> = {
  [SHOP_ORDER_PLACED_V1]: ShopOrderPlacedV1,
  [SHOP_ORDER_PAID_V1]: ShopOrderPaidV1,
  [SHOP_ORDER_CANCELLED_V1]: ShopOrderCancelledV1,
  ...FULFILMENT_EVENT_TYPES,
};

export interface FieldError {
  field: string;
  errors: string[];
}

export type EventValidation<T> = { ok: true; data: T } | { ok: false; fieldErrors: FieldError[] };

export function isKnownEventType(type: string): boolean {
  return Object.prototype.hasOwnProperty.call(EVENT_TYPES, type);
}

/** Validates `data` against the DTO of `type`; an unknown type is the caller's decision, so it throws. */
export function validateEventData<T extends object>(type: string, data: unknown): EventValidation<T> {
  const eventClass = EVENT_TYPES[type];
  if (!eventClass) throw new Error(`no schema for event type ${type}`);
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { ok: false, fieldErrors: [{ field: 'data', errors: ['data must be a JSON object'] }] };
  }
  const instance = plainToInstance(eventClass, data) as T;
  if (fastCheckValid(instance) === true) return { ok: true, data: instance };
  const errors = validateSync(instance, { forbidUnknownValues: true });
  if (errors.length === 0) return { ok: true, data: instance };
  return { ok: false, fieldErrors: flattenErrors(errors) };
}

/**
 * What is wrong with `data` against the DTO of `type` (undefined when nothing is), for a caller that needs only the answer
 * (the ingress): a valid payload is checked on the parsed JSON itself, without building the DTO instance; anything
 * else takes `validateEventData`'s path, whose messages the 400 carries.
 */
export function eventDataErrors(type: string, data: unknown): FieldError[] | undefined {
  const eventClass = EVENT_TYPES[type];
  if (eventClass && typeof data === 'object' && data !== null && !Array.isArray(data)) {
    if (fastCheckPlainValid(eventClass, data) === true) return undefined;
  }
  const result = validateEventData(type, data);
  return result.ok ? undefined : result.fieldErrors;
}

export function flattenErrors(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    const own = error.constraints ? [{ field, errors: Object.values(error.constraints) }] : [];
    return [...own, ...flattenErrors(error.children ?? [], field)];
  });
}
