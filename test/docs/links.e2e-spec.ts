import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { headingAnchors } from './markdown';

/**
 * The README is a front door and docs/ the reference: every relative link of either reaches a file, and a heading of
 * it when it names one; the README stays short enough to read in one go.
 */
const root = path.resolve(__dirname, '../..');
const documents = ['README.md', ...readdirSync(path.join(root, 'docs')).map((file) => path.join('docs', file))].filter(
  (file) => file.endsWith('.md'),
);
const README_MAX_LINES = 300;

describe('the README and docs/', () => {
  it('link only to files and headings that exist', () => {
    const broken = documents.flatMap((file) => {
      const text = readFileSync(path.join(root, file), 'utf8').replace(/```[\s\S]*?```/g, '');
      return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
        .map((match) => match[1])
        .filter((target) => !/^[a-z]+:/.test(target))
        .flatMap((target) => {
          const [relative, anchor] = target.split('#');
          const resolved = relative ? path.join(path.dirname(file), relative) : file;
          if (!existsSync(path.join(root, resolved))) return [`${file} links to ${target}: no such file`];
          if (anchor === undefined || !resolved.endsWith('.md')) return [];
          const anchors = headingAnchors(readFileSync(path.join(root, resolved), 'utf8'));
          return anchors.has(anchor) ? [] : [`${file} links to ${target}: ${resolved} has no heading #${anchor}`];
        });
    });
    expect(broken).toEqual([]);
  });

  it(`keep the README under ${README_MAX_LINES} lines`, () => {
    const lines = readFileSync(path.join(root, 'README.md'), 'utf8').split('\n').length;
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
  });
});
