// Bundles the extension into dist/extension.js (vscode stays external),
// and copies the repository's LICENSE beside package.json, where vsce
// packs it (the copy is git-ignored).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(path.dirname(fileURLToPath(import.meta.url))); // editors/vscode
const license = path.join(here, '..', '..', 'LICENSE');
if (fs.existsSync(license)) {
  fs.copyFileSync(license, path.join(here, 'LICENSE'));
}

const production = process.argv.includes('--production');
await esbuild.build({
  entryPoints: ['src/extension.ts'],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outfile: 'dist/extension.js',
  external: ['vscode'],
  minify: production,
  sourcemap: !production,
  logLevel: 'warning',
});
