import {
  INVENTORY_RESERVE_STOCK_V1,
  InventoryReserveStockV1,
} from './inventory-reserve-stock-v1/inventory-reserve-stock-v1.event';
import {
  INVENTORY_STOCK_RESERVED_V1,
  InventoryStockReservedV1,
} from './inventory-stock-reserved-v1/inventory-stock-reserved-v1.event';
import {
  INVENTORY_STOCK_RESERVATION_FAILED_V1,
  InventoryStockReservationFailedV1,
} from './inventory-stock-reservation-failed-v1/inventory-stock-reservation-failed-v1.event';
import {
  INVENTORY_RELEASE_STOCK_V1,
  InventoryReleaseStockV1,
} from './inventory-release-stock-v1/inventory-release-stock-v1.event';
import {
  INVENTORY_STOCK_RELEASED_V1,
  InventoryStockReleasedV1,
} from './inventory-stock-released-v1/inventory-stock-released-v1.event';
import { PAYMENTS_CHARGE_CARD_V1, PaymentsChargeCardV1 } from './payments-charge-card-v1/payments-charge-card-v1.event';
import {
  PAYMENTS_CARD_CHARGED_V1,
  PaymentsCardChargedV1,
} from './payments-card-charged-v1/payments-card-charged-v1.event';
import {
  PAYMENTS_CARD_CHARGE_FAILED_V1,
  PaymentsCardChargeFailedV1,
} from './payments-card-charge-failed-v1/payments-card-charge-failed-v1.event';
import {
  PAYMENTS_REFUND_CHARGE_V1,
  PaymentsRefundChargeV1,
} from './payments-refund-charge-v1/payments-refund-charge-v1.event';
import {
  PAYMENTS_CHARGE_REFUNDED_V1,
  PaymentsChargeRefundedV1,
} from './payments-charge-refunded-v1/payments-charge-refunded-v1.event';
import {
  PAYMENTS_CHARGE_REFUND_FAILED_V1,
  PaymentsChargeRefundFailedV1,
} from './payments-charge-refund-failed-v1/payments-charge-refund-failed-v1.event';
import {
  SHIPPING_CREATE_SHIPMENT_V1,
  ShippingCreateShipmentV1,
} from './shipping-create-shipment-v1/shipping-create-shipment-v1.event';
import {
  SHIPPING_SHIPMENT_CREATED_V1,
  ShippingShipmentCreatedV1,
} from './shipping-shipment-created-v1/shipping-shipment-created-v1.event';
import {
  SHIPPING_SHIPMENT_CREATION_FAILED_V1,
  ShippingShipmentCreationFailedV1,
} from './shipping-shipment-creation-failed-v1/shipping-shipment-creation-failed-v1.event';
import {
  SHIPPING_CANCEL_SHIPMENT_V1,
  ShippingCancelShipmentV1,
} from './shipping-cancel-shipment-v1/shipping-cancel-shipment-v1.event';
import {
  SHIPPING_SHIPMENT_CANCELLED_V1,
  ShippingShipmentCancelledV1,
} from './shipping-shipment-cancelled-v1/shipping-shipment-cancelled-v1.event';
import {
  SHIPPING_SHIPMENT_CANCELLATION_FAILED_V1,
  ShippingShipmentCancellationFailedV1,
} from './shipping-shipment-cancellation-failed-v1/shipping-shipment-cancellation-failed-v1.event';
import { SHOP_ORDER_FULFILLED_V1, ShopOrderFulfilledV1 } from './shop-order-fulfilled-v1/shop-order-fulfilled-v1.event';
import {
  SHOP_ORDER_FULFILMENT_FAILED_V1,
  ShopOrderFulfilmentFailedV1,
} from './shop-order-fulfilment-failed-v1/shop-order-fulfilment-failed-v1.event';
import {
  SHOP_ORDER_FULFILMENT_CANCELLED_V1,
  ShopOrderFulfilmentCancelledV1,
} from './shop-order-fulfilment-cancelled-v1/shop-order-fulfilment-cancelled-v1.event';

/**
 * The order fulfilment saga's messages: commands (imperative), replies (past tense) and the order's outcomes. Part of
 * EVENT_TYPES, so every consumer validates them like any other event.
 */
export const FULFILMENT_EVENT_TYPES: Readonly<Record<string, new () => object>> = {
  [INVENTORY_RESERVE_STOCK_V1]: InventoryReserveStockV1,
  [INVENTORY_STOCK_RESERVED_V1]: InventoryStockReservedV1,
  [INVENTORY_STOCK_RESERVATION_FAILED_V1]: InventoryStockReservationFailedV1,
  [INVENTORY_RELEASE_STOCK_V1]: InventoryReleaseStockV1,
  [INVENTORY_STOCK_RELEASED_V1]: InventoryStockReleasedV1,
  [PAYMENTS_CHARGE_CARD_V1]: PaymentsChargeCardV1,
  [PAYMENTS_CARD_CHARGED_V1]: PaymentsCardChargedV1,
  [PAYMENTS_CARD_CHARGE_FAILED_V1]: PaymentsCardChargeFailedV1,
  [PAYMENTS_REFUND_CHARGE_V1]: PaymentsRefundChargeV1,
  [PAYMENTS_CHARGE_REFUNDED_V1]: PaymentsChargeRefundedV1,
  [PAYMENTS_CHARGE_REFUND_FAILED_V1]: PaymentsChargeRefundFailedV1,
  [SHIPPING_CREATE_SHIPMENT_V1]: ShippingCreateShipmentV1,
  [SHIPPING_SHIPMENT_CREATED_V1]: ShippingShipmentCreatedV1,
  [SHIPPING_SHIPMENT_CREATION_FAILED_V1]: ShippingShipmentCreationFailedV1,
  [SHIPPING_CANCEL_SHIPMENT_V1]: ShippingCancelShipmentV1,
  [SHIPPING_SHIPMENT_CANCELLED_V1]: ShippingShipmentCancelledV1,
  [SHIPPING_SHIPMENT_CANCELLATION_FAILED_V1]: ShippingShipmentCancellationFailedV1,
  [SHOP_ORDER_FULFILLED_V1]: ShopOrderFulfilledV1,
  [SHOP_ORDER_FULFILMENT_FAILED_V1]: ShopOrderFulfilmentFailedV1,
  [SHOP_ORDER_FULFILMENT_CANCELLED_V1]: ShopOrderFulfilmentCancelledV1,
};
