import { readFileSync } from 'node:fs';

/** The console's icon: two rails and their sleepers, in the header's colours. */
const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1d232a"/><path d="M10 7v18M16 7v18M22 7v18" stroke="#0969da" stroke-width="2.5" stroke-linecap="round"/><path d="M5 12h22M5 20h22" stroke="#ffffff" stroke-width="2.5" stroke-linecap="round"/></svg>`;

/**
 * The files the console loads besides itself: uPlot's script and stylesheet, from the installed npm package, and its
 * icon. Nothing comes from another host.
 */
const ASSETS: Record<string, { file: string; type: string } | { text: string; type: string }> = {
  'uplot.iife.min.js': { file: 'uplot/dist/uPlot.iife.min.js', type: 'text/javascript; charset=utf-8' },
  'uplot.min.css': { file: 'uplot/dist/uPlot.min.css', type: 'text/css; charset=utf-8' },
  'favicon.svg': { text: FAVICON, type: 'image/svg+xml' },
};

export interface ConsoleAsset {
  body: Buffer;
  type: string;
}

const loaded = new Map<string, ConsoleAsset>();

/** The asset of that name, read once from node_modules; undefined for any other name. */
export function consoleAsset(name: string): ConsoleAsset | undefined {
  const asset = ASSETS[name];
  if (!asset) return undefined;
  if (!loaded.has(name))
    loaded.set(name, {
      body: 'text' in asset ? Buffer.from(asset.text) : readFileSync(require.resolve(asset.file)),
      type: asset.type,
    });
  return loaded.get(name);
}
