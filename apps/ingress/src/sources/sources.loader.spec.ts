import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '@app/config';
import { loadSources } from './sources.loader';

const dir = mkdtempSync(path.join(os.tmpdir(), 'hookrail-sources-'));
function file(content: unknown): string {
  const target = path.join(dir, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(target, typeof content === 'string' ? content : JSON.stringify(content));
  return target;
}
const shop = {
  name: 'shop',
  scheme: 'standard-webhooks',
  secrets: ['env:SHOP_SECRET', 'whsec_b2xk'],
  topic: 'shop.orders',
  aggregateIdPath: 'data.orderId',
};

describe('loadSources', () => {
  it('reads a file: secret, less its trailing line break, and names a file that cannot be read', () => {
    const secretFile = file('whsec_ZnJvbS1hLWZpbGU=\n');
    const [source] = loadSources(file([{ ...shop, secrets: [`file:${secretFile}`] }]), {});
    expect(source.secrets).toEqual(['whsec_ZnJvbS1hLWZpbGU=']);
    const absent = path.join(dir, 'absent-secret');
    expect(() => loadSources(file([{ ...shop, secrets: [`file:${absent}`] }]), {})).toThrow(
      `source #1 (shop): secrets[0] refers to file ${absent}, which cannot be read (ENOENT)`,
    );
  });

  it('resolves env: secrets and applies per-scheme defaults', () => {
    const [source] = loadSources(file([shop]), { SHOP_SECRET: 'whsec_c2VjcmV0' });
    expect(source).toEqual({
      name: 'shop',
      scheme: 'standard-webhooks',
      secrets: ['whsec_c2VjcmV0', 'whsec_b2xk'],
      topic: 'shop.orders',
      typePath: 'type',
      aggregateIdPath: 'data.orderId',
      dataPath: 'data',
      toleranceSeconds: 300,
    });
  });

  it('keeps the customer id path', () => {
    const [source] = loadSources(file([{ ...shop, customerIdPath: 'data.tenant.id' }]), {
      SHOP_SECRET: 'whsec_c2VjcmV0',
    });
    expect(source.customerIdPath).toBe('data.tenant.id');
  });

  it.each([
    ['a missing file', path.join(dir, 'absent.json'), /HOOKRAIL_SOURCES file .* cannot be read \(ENOENT\)/],
    ['bad JSON', file('[{'), /is not valid JSON/],
    ['an object instead of a list', file({}), /must hold a JSON array/],
    [
      'an unknown scheme',
      file([{ ...shop, scheme: 'svix' }]),
      /source #1 \(shop\): scheme must be one of standard-webhooks, stripe, github/,
    ],
    ['no secrets', file([{ ...shop, secrets: [] }]), /secrets must list at least one secret/],
    ['a bad topic', file([{ ...shop, topic: 'a topic' }]), /topic must be a valid Kafka topic name/],
    ['an unknown field', file([{ ...shop, secret: 'x' }]), /property secret should not exist/],
    ['a customerIdPath that is no string', file([{ ...shop, customerIdPath: 3 }]), /customerIdPath must be a string/],
    ['an empty customerIdPath', file([{ ...shop, customerIdPath: '' }]), /customerIdPath must be longer than/],
    ['a duplicate name', file([shop, shop]), /source #2 \(shop\): duplicate source name/],
    ['a reserved name', file([{ ...shop, name: 'unknown' }]), /source #1 \(unknown\): name "unknown" is reserved/],
    [
      'an unset env secret',
      file([{ ...shop, secrets: ['env:NOPE'] }]),
      /secrets\[0\] refers to environment variable NOPE, which is not set/,
    ],
    [
      'a Standard Webhooks secret that is not base64',
      file([{ ...shop, secrets: ['env:SHOP_SECRET', 'whsec_b2xk!'] }]),
      /source #1 \(shop\): secrets\[1\] is not a Standard Webhooks signing secret: character 11 is a character that base64 does not use; a valid one is whsec_ followed by/,
    ],
    [
      'a tolerance over the scheme window',
      file([{ ...shop, toleranceSeconds: 600 }]),
      /toleranceSeconds can be at most 300/,
    ],
  ])('names the problem for %s', (_case, target, message) => {
    expect(() => loadSources(target, { SHOP_SECRET: 'whsec_c2VjcmV0' })).toThrow(message);
  });

  it('never puts a secret value in its messages', () => {
    let message = '';
    try {
      loadSources(file([{ ...shop, secrets: ['super-secret-value'], scheme: 'nope' }]), {});
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).not.toContain('super-secret-value');
    expect(message).toContain('scheme must be one of');
  });

  it('reports every mistake of the file at once, each with its source and field', () => {
    const mistakes = [
      { ...shop, scheme: 'carrier-pigeon' },
      { ...shop, name: 'other', topic: '' },
      { ...shop, name: 'other' },
      { ...shop, name: 'third', secrets: ['env:NOT_SET'] },
    ];
    let problems: string[] = [];
    try {
      loadSources(file(mistakes), { SHOP_SECRET: 'whsec_c2VjcmV0' });
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(problems).toEqual([
      expect.stringMatching(/source #1 \(shop\): .*scheme/),
      expect.stringMatching(/source #2 \(other\): .*topic/),
      expect.stringMatching(/source #3 \(other\): duplicate source name/),
      expect.stringMatching(
        /source #4 \(third\): secrets\[0\] refers to environment variable NOT_SET, which is not set/,
      ),
    ]);
  });
});
