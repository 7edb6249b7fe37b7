import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Doc comments read from TypeScript sources with the compiler's parser, for the documents generated from them (the
 * event catalogue's descriptions, the configuration reference). Nothing is type-checked or run.
 */

/** A node's nearest doc comment: its text and its tags (`@name text`), or no text and no tags. */
export interface DocComment {
  text?: string;
  tags: Record<string, string>;
}

/** A class declared at the top level of a source file, with its doc comment and each property's, in source order. */
export interface ClassDocs {
  name: string;
  doc: DocComment;
  properties: Array<{ name: string; doc: DocComment }>;
}

/** The named classes declared at the top level of `file`. */
export function classDocs(file: string): ClassDocs[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const classes: ClassDocs[] = [];
  source.forEachChild((node) => {
    if (!ts.isClassDeclaration(node) || !node.name) return;
    const properties = node.members
      .filter((member) => ts.isPropertyDeclaration(member) && ts.isIdentifier(member.name))
      .map((member) => ({ name: (member.name as ts.Identifier).text, doc: docComment(member) }));
    classes.push({ name: node.name.text, doc: docComment(node), properties });
  });
  return classes;
}

/** The `.ts` files under `directory` (not the tests), sorted, as paths joined to `directory`. */
export function typeScriptSources(directory: string): string[] {
  return (readdirSync(directory, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts') && !/\.(int-)?spec\.ts$/.test(file))
    .sort()
    .map((file) => path.join(directory, file));
}

/** Single line breaks inside a paragraph become spaces; paragraphs stay apart (one blank line). */
export function docComment(node: ts.Node): DocComment {
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
