import {
  CloudEvent,
  OrderFieldsV1,
  SHOP_ORDER_CANCELLED_V1,
  SHOP_ORDER_PAID_V1,
  SHOP_ORDER_PLACED_V1,
} from '@app/contracts';
import { OutgoingEmail } from './email-provider.client';

const SUBJECTS: Record<string, (orderId: string) => string> = {
  [SHOP_ORDER_PLACED_V1]: (orderId) => `We received your order ${orderId}`,
  [SHOP_ORDER_PAID_V1]: (orderId) => `Payment received for order ${orderId}`,
  [SHOP_ORDER_CANCELLED_V1]: (orderId) => `Your order ${orderId} was cancelled`,
};

/** The email an order event sends to its customer. Pure: the same event always gives the same email. */
export function composeOrderEmail(event: CloudEvent<OrderFieldsV1>, from: string): OutgoingEmail {
  const order = event.data;
  const subject = (SUBJECTS[event.type] ?? ((orderId: string) => `News about your order ${orderId}`))(order.orderId);
  const greeting = order.customer.name ? `Hello ${order.customer.name},` : 'Hello,';
  const items = order.lineItems.map((item) => `  ${item.quantity} × ${item.sku}`).join('\n');
  const text = `${greeting}\n\n${subject}.\n\n${items}\n\nTotal: ${formatAmount(order.amount, order.currency)}\n`;
  return { from, to: order.customer.email, subject, text };
}

/** Minor units to a decimal string with the currency code; two decimals (the shop's currencies all have two). */
export function formatAmount(minor: number, currency: string): string {
  return `${(minor / 100).toFixed(2)} ${currency}`;
}
