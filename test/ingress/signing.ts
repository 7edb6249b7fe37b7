import { sign as githubSign } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';

// Signatures made by the senders' own libraries, never by hookrail's code.
const stripe = new Stripe('not-used-for-signing');

export function standardHeaders(secret: string, id: string, body: string, at = new Date()): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  };
}

export function stripeHeaders(secret: string, body: string, at = new Date()): Record<string, string> {
  const header = stripe.webhooks.generateTestHeaderString({
    payload: body,
    secret,
    timestamp: Math.floor(at.getTime() / 1000),
  });
  return { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header };
}

export async function githubHeaders(
  secret: string,
  body: string,
  delivery: string,
  event = 'push',
): Promise<Record<string, string>> {
  return {
    'content-type': 'application/json',
    'x-github-delivery': delivery,
    'x-github-event': event,
    'x-hub-signature-256': await githubSign({ secret, algorithm: 'sha256' }, body),
  };
}
