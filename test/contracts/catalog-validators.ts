import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const contracts = path.resolve(__dirname, '../../contracts');

export interface KafkaMessageView {
  key: string | null;
  value: string | null;
  headers: Record<string, string>;
}

/**
 * Validates Kafka messages against the committed catalogue, as a downstream team would: the value against
 * `contracts/schemas/<ce_type>.json` and the headers against the message's headers in `contracts/asyncapi.json`
 * (ajv, JSON Schema 2020-12, the dialect the document declares, formats asserted). A type without a schema is checked against the headers of
 * `unregisteredEvent` only.
 */
export class CatalogValidators {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly messages: Record<string, { headers: { schemaFormat: string; schema: object } }>;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor() {
    addFormats(this.ajv);
    const asyncApi = JSON.parse(readFileSync(path.join(contracts, 'asyncapi.json'), 'utf8'));
    this.messages = asyncApi.components.messages;
  }

  hasSchema(type: string): boolean {
    return type in this.messages && type !== 'unregisteredEvent' && type !== 'deadLetter';
  }

  /** Every problem with the message, as `where: what`; none means it validates. */
  problems(message: KafkaMessageView): string[] {
    const type = message.headers.ce_type ?? '';
    const messageKey = this.hasSchema(type) ? type : 'unregisteredEvent';
    const found = [
      ...this.check(`headers:${messageKey}`, () => this.messages[messageKey].headers.schema, message.headers, 'headers'),
    ];
    if (message.key === null || message.key === '') found.push('key: missing');
    if (message.headers.ce_subject !== undefined && message.key !== message.headers.ce_subject)
      found.push(`key: ${message.key} is not ce_subject ${message.headers.ce_subject}`);
    if (this.hasSchema(type)) {
      const schemaFile = path.join(contracts, 'schemas', `${type}.json`);
      let data: unknown;
      try {
        data = JSON.parse(message.value ?? '');
      } catch {
        return [...found, 'value: not JSON'];
      }
      found.push(...this.check(`schema:${type}`, () => JSON.parse(readFileSync(schemaFile, 'utf8')), data, 'value'));
    }
    return found;
  }

  /** Problems of a dead letter's headers against the `deadLetter` message of the AsyncAPI document. */
  deadLetterProblems(headers: Record<string, string>): string[] {
    return this.check('headers:deadLetter', () => this.messages.deadLetter.headers.schema, headers, 'headers');
  }

  private check(key: string, schema: () => object, data: unknown, where: string): string[] {
    let validate = this.compiled.get(key);
    if (!validate) this.compiled.set(key, (validate = this.ajv.compile(schema())));
    return validate(data) ? [] : (validate.errors ?? []).map((error) => `${where}${error.instancePath}: ${error.message}`);
  }
}
