// Publishes every .vsix of out/vsix/ (npm run package:all first) to the
// Visual Studio Marketplace with vsce or to Open VSX with ovsx:
//   node scripts/publish.mjs vsce      token in VSCE_PAT
//   node scripts/publish.mjs ovsx      token in OVSX_PAT
//   node scripts/publish.mjs ovsx --dry-run   prints the commands only
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(path.dirname(fileURLToPath(import.meta.url))); // editors/vscode
const [tool, ...rest] = process.argv.slice(2);
const dryRun = rest.includes('--dry-run');
const token = { vsce: 'VSCE_PAT', ovsx: 'OVSX_PAT' }[tool];
if (!token || rest.some((a) => a !== '--dry-run')) {
  console.error('usage: node scripts/publish.mjs vsce|ovsx [--dry-run]');
  process.exit(2);
}
const pkg = JSON.parse(fs.readFileSync(path.join(here, 'package.json'), 'utf8'));
const outDir = path.join(here, 'out', 'vsix');
const suffix = `-${pkg.version}.vsix`;
const vsixes = fs.existsSync(outDir) ? fs.readdirSync(outDir).filter((f) => f.startsWith(`${pkg.name}-`) && f.endsWith(suffix)).sort() : [];
if (vsixes.length === 0) {
  console.error(`no ${pkg.name}-<platform>${suffix} in ${outDir}: run npm run package:all first`);
  process.exit(1);
}
if (!dryRun && !process.env[token]) {
  console.error(`${token} is not set: the ${tool} token of the "${pkg.publisher}" publisher`);
  process.exit(1);
}
const bin = path.join(here, 'node_modules', '.bin', tool);
for (const f of vsixes) {
  // Both tools read their token from the environment (VSCE_PAT, OVSX_PAT).
  const args = ['publish', '--packagePath', path.join(outDir, f)];
  console.log(`${tool} ${args.join(' ')}`);
  if (!dryRun) {
    execFileSync(bin, args, { cwd: here, stdio: 'inherit' });
  }
}
