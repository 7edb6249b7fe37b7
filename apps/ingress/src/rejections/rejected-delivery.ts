import { NewSourceRejection } from '@app/rejections';
import { FastifyRequest } from 'fastify';
import { receivedHeaders } from '../events/received-headers';
import { Problem } from '@app/http';
import { redactedBodyPrefix } from './redacted-body';

const MAX_DETAIL_ITEMS = 20;

/**
 * What is kept of a rejected request: when, the answer (status, reason, message and details such as field errors),
 * the path without its query, the headers without credentials and signatures, the body's length and its redacted
 * start. Nothing of it is an event.
 */
export function rejectedDelivery(
  request: FastifyRequest,
  problem: Problem,
  source: string,
  bodyPrefixChars: number,
): NewSourceRejection {
  const body = Buffer.isBuffer(request.body) ? request.body : undefined;
  return {
    source,
    receivedAt: new Date(),
    status: problem.status,
    reason: problem.reason,
    message: problem.message.slice(0, 1000),
    path: request.url.split('?')[0].slice(0, 300),
    headers: receivedHeaders(request.headers),
    bodyBytes: body?.length ?? (Number(request.headers['content-length']) || 0),
    bodyPrefix: redactedBodyPrefix(body, bodyPrefixChars),
    details: Object.keys(problem.details).length > 0 ? boundedDetails(problem.details) : null,
  };
}

/** Lists in the details (field errors) cut to their first 20 entries, with how many more there were. */
function boundedDetails(details: Record<string, unknown>): Record<string, unknown> {
  const bounded: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(details)) {
    bounded[key] = Array.isArray(value) ? value.slice(0, MAX_DETAIL_ITEMS) : value;
    if (Array.isArray(value) && value.length > MAX_DETAIL_ITEMS)
      bounded[`${key}More`] = value.length - MAX_DETAIL_ITEMS;
  }
  return bounded;
}
