import { CloudEvent, OrderFieldsV1 } from '@app/contracts';
import { ChatMessage, ModelAnswer } from './model.client';

/** The event types the agent works on: orders placed with a note from the customer. */
export const TRIAGE_CATEGORIES = ['gift', 'delivery', 'change', 'complaint', 'other'] as const;

const SYSTEM = [
  'You triage notes that customers leave on shop orders.',
  `Answer with one JSON object: {"category": one of ${TRIAGE_CATEGORIES.map((c) => `"${c}"`).join(', ')}, "summary": a sentence of at most 20 words}.`,
  'Answer with the JSON object only.',
].join(' ');

/** True when the event carries something for the model to read. */
export function needsTriage(event: CloudEvent<OrderFieldsV1>): boolean {
  return typeof event.data.note === 'string' && event.data.note.trim().length > 0;
}

/** The chat messages for one order note. Pure. */
export function triagePrompt(event: CloudEvent<OrderFieldsV1>): ChatMessage[] {
  const order = event.data;
  const items = order.lineItems.map((item) => `${item.quantity} × ${item.sku}`).join(', ');
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: `Order ${order.orderId} (${items}; ${order.amount} ${order.currency} in minor units).\nNote: ${order.note ?? ''}`,
    },
  ];
}

export interface TriageResult {
  model: string;
  category: string | null;
  summary: string | null;
  /** The model's answer as given, kept when it is not the JSON asked for. */
  content: string;
}

/** The stored result: the JSON the model was asked for when it gave it, its raw answer always. */
export function readTriage(answer: ModelAnswer): TriageResult {
  try {
    const parsed = JSON.parse(answer.content) as { category?: unknown; summary?: unknown };
    return {
      model: answer.model,
      category: typeof parsed.category === 'string' ? parsed.category : null,
      summary: typeof parsed.summary === 'string' ? parsed.summary : null,
      content: answer.content,
    };
  } catch {
    return { model: answer.model, category: null, summary: null, content: answer.content };
  }
}
