import { ContractDoc, ContractDocs } from '@app/contracts';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Where the contract classes live, from the repository root. */
export const CONTRACTS_SOURCE = 'libs/contracts/src/events';

/**
 * The doc comments of every contract class under `directory`, by class name: the description, `@source`, `@example`
 * (JSON; a malformed one throws, naming the class and file) and each property's comment. Single line breaks inside a
 * paragraph become spaces; paragraphs stay apart.
 */
export function readContractDocs(directory: string): ContractDocs {
  const docs: Record<string, ContractDoc & { file: string }> = {};
  for (const file of sourceFiles(directory)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    source.forEachChild((node) => {
      if (!ts.isClassDeclaration(node) || !node.name) return;
      const name = node.name.text;
      if (docs[name]) throw new Error(`contract class ${name} is declared twice: ${docs[name].file} and ${file}`);
      const { text, tags } = docComment(node);
      const properties: Record<string, string> = {};
      for (const member of node.members) {
        if (!ts.isPropertyDeclaration(member) || !ts.isIdentifier(member.name)) continue;
        const description = docComment(member).text;
        if (description) properties[member.name.text] = description;
      }
      docs[name] = {
        file,
        ...(text ? { description: text } : {}),
        ...(tags.source ? { source: tags.source } : {}),
        ...(tags.example !== undefined ? { example: parseExample(tags.example, name, file) } : {}),
        properties,
      };
    });
  }
  return Object.fromEntries(Object.entries(docs).map(([name, { file: _file, ...doc }]) => [name, doc]));
}

function sourceFiles(directory: string): string[] {
  return (readdirSync(directory, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts') && !/\.(int-)?spec\.ts$/.test(file))
    .sort()
    .map((file) => path.join(directory, file));
}

function docComment(node: ts.Node): { text?: string; tags: Record<string, string> } {
  const comments = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
  const nearest = comments[comments.length - 1];
  if (!nearest) return { tags: {} };
  const tags: Record<string, string> = {};
  for (const tag of nearest.tags ?? []) tags[tag.tagName.text] = ts.getTextOfJSDocComment(tag.comment)?.trim() ?? '';
  return { text: paragraphs(ts.getTextOfJSDocComment(nearest.comment)), tags };
}

function paragraphs(text: string | undefined): string | undefined {
  const joined = text
    ?.split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/\s*\n\s*/g, ' ').trim())
    .filter(Boolean)
    .join('\n\n');
  return joined || undefined;
}

function parseExample(text: string, name: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: the @example of ${name} is not JSON: ${(error as Error).message}`);
  }
}
