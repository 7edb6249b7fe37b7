import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '@app/config';
import { CONFIGURATION_PAGE, configurationPage } from './configuration.page';

/**
 * `npm run docs:config`: writes docs/configuration.md from the configuration classes' doc comments and defaults, and
 * docs/configuration-development.md from the few variables read outside them. Refuses, naming each, while a variable
 * has no meaning or a class is read by no program of the page; then nothing is written.
 */
function main(): number {
  const root = repoRoot();
  const { pages, problems } = configurationPage(root);
  if (problems.length > 0) {
    process.stderr.write(
      `docs:config: ${CONFIGURATION_PAGE} not written:\n${problems.map((p) => `  ${p}\n`).join('')}`,
    );
    return 1;
  }
  for (const [file, markdown] of Object.entries(pages)) {
    writeFileSync(path.join(root, file), markdown);
    process.stdout.write(`docs:config: wrote ${file}\n`);
  }
  return 0;
}

process.exitCode = main();
