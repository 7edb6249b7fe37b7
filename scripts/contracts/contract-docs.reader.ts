import { ContractDoc, ContractDocs } from '@app/contracts';
import { classDocs, typeScriptSources } from '../lib/doc-comments';

/** Where the contract classes live, from the repository root. */
export const CONTRACTS_SOURCE = 'libs/contracts/src/events';

/**
 * The doc comments of every contract class under `directory`, by class name: the description, `@source`, `@example`
 * (JSON; a malformed one throws, naming the class and file) and each property's comment. Single line breaks inside a
 * paragraph become spaces; paragraphs stay apart.
 */
export function readContractDocs(directory: string): ContractDocs {
  const docs: Record<string, ContractDoc & { file: string }> = {};
  for (const file of typeScriptSources(directory)) {
    for (const { name, doc, properties: members } of classDocs(file)) {
      if (docs[name]) throw new Error(`contract class ${name} is declared twice: ${docs[name].file} and ${file}`);
      const { text, tags } = doc;
      const properties: Record<string, string> = {};
      for (const member of members) if (member.doc.text) properties[member.name] = member.doc.text;
      docs[name] = {
        file,
        ...(text ? { description: text } : {}),
        ...(tags.source ? { source: tags.source } : {}),
        ...(tags.example !== undefined ? { example: parseExample(tags.example, name, file) } : {}),
        properties,
      };
    }
  }
  return Object.fromEntries(Object.entries(docs).map(([name, { file: _file, ...doc }]) => [name, doc]));
}

function parseExample(text: string, name: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: the @example of ${name} is not JSON: ${(error as Error).message}`);
  }
}
