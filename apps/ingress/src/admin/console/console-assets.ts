import { readFileSync } from 'node:fs';

/** The files the console loads besides itself: uPlot's script and stylesheet, from the installed npm package. */
const ASSETS: Record<string, { file: string; type: string }> = {
  'uplot.iife.min.js': { file: 'uplot/dist/uPlot.iife.min.js', type: 'text/javascript; charset=utf-8' },
  'uplot.min.css': { file: 'uplot/dist/uPlot.min.css', type: 'text/css; charset=utf-8' },
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
  if (!loaded.has(name)) loaded.set(name, { body: readFileSync(require.resolve(asset.file)), type: asset.type });
  return loaded.get(name);
}
