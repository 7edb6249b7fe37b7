import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { filesUnder, headingAnchors, markdownDocuments, relativeLinks } from './markdown';

/**
 * The README is a front door and docs/ the reference: every relative link of either (docs/ and its sub-folders)
 * reaches a file, and a heading of it when it names one; no page under docs/ grows past what a newcomer reads in one
 * sitting (30 KB: a longer one is split by part, its history moved to an appendix page); a code comment that names a
 * docs page names one that exists, and a heading of it when it gives an anchor; the README stays short enough to read
 * in one go.
 */
const root = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const README_MAX_LINES = 300;
const PAGE_MAX_BYTES = 30 * 1024;
/** Where code comments may point to docs pages. */
const CODE_DIRS = ['apps', 'libs', 'scripts', 'bench', 'test'];
const CODE_FILE = /\.(ts|js|sh|xml|ya?ml|json)$/;

const anchorsOf = new Map<string, Set<string>>();
function anchors(file: string): Set<string> {
  if (!anchorsOf.has(file)) anchorsOf.set(file, headingAnchors(read(file)));
  return anchorsOf.get(file)!;
}

/** What is wrong with `target` (a file from the root, and an anchor or none), or nothing. */
function problem(target: string, anchor: string | undefined): string | undefined {
  if (!existsSync(path.join(root, target))) return 'no such file';
  if (anchor === undefined || !target.endsWith('.md')) return undefined;
  return anchors(target).has(anchor) ? undefined : `${target} has no heading #${anchor}`;
}

describe('the README and docs/', () => {
  const documents = markdownDocuments(root);

  it('are found, sub-folders of docs/ included', () => {
    expect(documents).toEqual(expect.arrayContaining(['README.md', 'docs/architecture.md']));
  });

  it('link only to files and headings that exist', () => {
    const broken = documents.flatMap((file) =>
      relativeLinks(read(file)).flatMap((link) => {
        const [relative, anchor] = link.split('#');
        const target = relative ? path.posix.join(path.posix.dirname(file), relative) : file;
        const wrong = problem(target, anchor);
        return wrong ? [`${file} links to ${link}: ${wrong}`] : [];
      }),
    );
    expect(broken).toEqual([]);
  });

  it(`keep every page under docs/ within ${PAGE_MAX_BYTES} bytes`, () => {
    const large = filesUnder(root, 'docs')
      .map((file) => ({ file, bytes: statSync(path.join(root, file)).size }))
      .filter(({ bytes }) => bytes > PAGE_MAX_BYTES)
      .map(({ file, bytes }) => `${file} is ${bytes} bytes: split it by part, or move its history to an appendix page`);
    expect(large).toEqual([]);
  });

  it('are named by code comments only as pages and headings that exist', () => {
    const files = CODE_DIRS.flatMap((dir) => filesUnder(root, dir)).filter((file) => CODE_FILE.test(file));
    expect(files.length).toBeGreaterThan(0);
    const broken = files.flatMap((file) =>
      [...read(file).matchAll(/\bdocs\/([\w./-]*\w\.md)(?:#([\w-]+))?/g)].flatMap(([reference, page, anchor]) => {
        const wrong = problem(`docs/${page}`, anchor);
        return wrong ? [`${file} names ${reference}: ${wrong}`] : [];
      }),
    );
    expect(broken).toEqual([]);
  });

  it(`keep the README under ${README_MAX_LINES} lines`, () => {
    const lines = read('README.md').split('\n').length;
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
  });
});
