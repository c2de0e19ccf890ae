// The one way the .vsix files are published (the release workflow runs it on
// dist/): every beeuni-lsp-<target>-<version>.vsix of a folder goes to the
// Visual Studio Marketplace with vsce or to Open VSX with ovsx, the versions
// package-lock.json pins (node_modules/.bin: npm ci first).
//   node scripts/publish.mjs vsce|ovsx [--dir DIR] [--version X.Y.Z] [--dry-run]
// --dir: the folder of .vsix files (default out/vsix/, where npm run
// package:all writes them); --version: the version they carry (default
// package.json's); the token is VSCE_PAT or OVSX_PAT; --dry-run prints the
// commands only.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(path.dirname(fileURLToPath(import.meta.url))); // editors/vscode
const usage = 'usage: node scripts/publish.mjs vsce|ovsx [--dir DIR] [--version X.Y.Z] [--dry-run]';
const pkg = JSON.parse(fs.readFileSync(path.join(here, 'package.json'), 'utf8'));

const [tool, ...rest] = process.argv.slice(2);
const token = { vsce: 'VSCE_PAT', ovsx: 'OVSX_PAT' }[tool];
let dir = path.join(here, 'out', 'vsix');
let version = pkg.version;
let dryRun = false;
for (let i = 0; i < rest.length; i++) {
  const arg = rest[i];
  if (arg === '--dry-run') {
    dryRun = true;
  } else if ((arg === '--dir' || arg === '--version') && i + 1 < rest.length) {
    const value = rest[++i];
    if (arg === '--dir') dir = path.resolve(value);
    else version = value.replace(/^v/, '');
  } else {
    console.error(`${usage}\n(unexpected ${JSON.stringify(arg)})`);
    process.exit(2);
  }
}
if (!token) {
  console.error(usage);
  process.exit(2);
}
const suffix = `-${version}.vsix`;
const vsixes = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.startsWith(`${pkg.name}-`) && f.endsWith(suffix)).sort() : [];
if (vsixes.length === 0) {
  console.error(`no ${pkg.name}-<target>${suffix} in ${dir}: run npm run package:all first, or name the folder with --dir and the version with --version`);
  process.exit(1);
}
if (!dryRun && !process.env[token]) {
  console.error(`${token} is not set: the ${tool} token of the "${pkg.publisher}" publisher`);
  process.exit(1);
}
const bin = path.join(here, 'node_modules', '.bin', tool);
if (!dryRun && !fs.existsSync(bin)) {
  console.error(`${bin} is missing: run npm ci in ${here}`);
  process.exit(1);
}
for (const f of vsixes) {
  // Both tools read their token from the environment (VSCE_PAT, OVSX_PAT).
  const args = ['publish', '--packagePath', path.join(dir, f)];
  console.log(`${path.relative(here, bin)} ${args.join(' ')}`);
  if (!dryRun) {
    execFileSync(bin, args, { cwd: here, stdio: 'inherit' });
  }
}
