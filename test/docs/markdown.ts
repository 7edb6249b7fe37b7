import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** The anchor GitHub gives a heading: lower case, punctuation dropped but for '-' and '_', spaces as dashes. */
export function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown document's headings (outside code blocks); a repeated one gets `-1`, `-2`… as on GitHub. */
export function headingAnchors(markdown: string): Set<string> {
  let inCode = false;
  const anchors = new Set<string>();
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inCode = !inCode;
    else if (!inCode && /^#{1,6} /.test(line)) {
      const anchor = anchorOf(line.replace(/^#+ /, '').trim());
      let unique = anchor;
      for (let n = 1; anchors.has(unique); n++) unique = `${anchor}-${n}`;
      anchors.add(unique);
    }
  }
  return anchors;
}

/** The relative targets of a Markdown document's inline links (`[text](target)`), outside code blocks. */
export function relativeLinks(markdown: string): string[] {
  return [...markdown.replace(/```[\s\S]*?```/g, '').matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1])
    .filter((target) => !/^[a-z]+:/.test(target));
}

/** Every file under `dir` (a path from `root`), by its path from `root`, with '/' between the parts. */
export function filesUnder(root: string, dir: string): string[] {
  return (readdirSync(path.join(root, dir), { recursive: true }) as string[])
    .map((file) => path.join(dir, file).split(path.sep).join('/'))
    .filter((file) => statSync(path.join(root, file)).isFile())
    .sort();
}

/** The README and every Markdown page under docs/, by their paths from `root`. */
export function markdownDocuments(root: string): string[] {
  return ['README.md', ...filesUnder(root, 'docs').filter((file) => file.endsWith('.md'))];
}
