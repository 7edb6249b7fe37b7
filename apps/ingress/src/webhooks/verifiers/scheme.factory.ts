import { Source } from '../../sources/source';
import { GithubScheme } from './github.scheme';
import { StandardWebhooksScheme } from './standard-webhooks.scheme';
import { StripeScheme } from './stripe.scheme';
import { WebhookScheme } from './webhook-scheme';

export function schemeFor(source: Source): WebhookScheme {
  switch (source.scheme) {
    case 'standard-webhooks':
      return new StandardWebhooksScheme(source.secrets, source.toleranceSeconds);
    case 'stripe':
      return new StripeScheme(source.secrets, source.toleranceSeconds);
    case 'github':
      return new GithubScheme(source.secrets);
  }
}
