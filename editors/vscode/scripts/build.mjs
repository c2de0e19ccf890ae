// Bundles the extension into dist/extension.js (vscode stays external),
// and copies the repository's LICENSE beside package.json, where vsce
// packs it (the copy is git-ignored). dist/licenses.json lists the npm
// packages the bundle holds, each with its version, license and license
// texts: scripts/package.mjs puts them in the .vsix's
// THIRD_PARTY_LICENSES.txt and scripts/release.sh in the SBOM. A bundled
// package without a license file fails the build.
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
const result = await esbuild.build({
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
  metafile: true,
});
fs.writeFileSync(path.join(here, 'dist', 'licenses.json'), JSON.stringify(bundledPackages(result.metafile), null, 2) + '\n');

/**
 * The npm packages whose files the bundle holds (esbuild's metafile
 * inputs under node_modules, nested ones included), sorted by name and
 * version, each with its license files' texts.
 */
function bundledPackages(metafile) {
  const dirs = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const abs = path.resolve(input).split(path.sep).join('/');
    const at = abs.lastIndexOf('/node_modules/');
    if (at < 0) continue;
    const rest = abs.slice(at + '/node_modules/'.length).split('/');
    const name = rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
    dirs.add(abs.slice(0, at + '/node_modules/'.length) + name);
  }
  const packages = [...dirs].map((dir) => {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const files = fs.readdirSync(dir).filter((f) => /^(licen[cs]e|copying|notice)/i.test(f)).sort();
    if (files.length === 0) throw new Error(`${pkg.name}@${pkg.version} (${dir}) has no license file: its license text cannot ship with the bundle`);
    return {
      name: pkg.name,
      version: pkg.version,
      license: typeof pkg.license === 'string' ? pkg.license : '',
      files: files.map((f) => ({ name: f, text: fs.readFileSync(path.join(dir, f), 'utf8') })),
    };
  });
  return packages.sort((a, b) => (a.name === b.name ? (a.version < b.version ? -1 : 1) : a.name < b.name ? -1 : 1));
}
