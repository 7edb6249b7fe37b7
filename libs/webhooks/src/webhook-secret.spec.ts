import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, webhookSecretProblem } from './webhook-secret';

describe('webhookSecretProblem', () => {
  it.each([newWebhookSecret(), newWebhookSecret().slice('whsec_'.length), 'whsec_YQ==', 'whsec_YWI='])(
    'accepts %j, as the reference library does',
    (secret) => {
      expect(webhookSecretProblem(secret)).toBeUndefined();
      expect(() => new Webhook(secret)).not.toThrow();
    },
  );

  it.each([
    ['whsec_', 'there is nothing after whsec_'],
    ['whsec_…', 'it still holds the placeholder "…"'],
    ['whsec_abc-defg', 'character 10 is a character that base64 does not use'],
    ['whsec_abcd\n', 'character 11 is white space'],
    ['whsec_ab=cdefg', '"=" may only pad the end, at most twice'],
    ['whsec_abcde', 'the base64 after whsec_ is 5 characters long, not a multiple of 4'],
  ])('says what is wrong with %j, without quoting it', (secret, reason) => {
    expect(webhookSecretProblem(secret)).toContain(reason);
  });
});
