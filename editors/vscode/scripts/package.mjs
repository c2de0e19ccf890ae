// Builds one .vsix per platform into out/vsix/, each with its own
// cross-compiled beeuni-lsp in bin/.
//   node scripts/package.mjs                      all five targets
//   node scripts/package.mjs --target linux-x64   one target (repeatable)
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(path.dirname(fileURLToPath(import.meta.url))); // editors/vscode
const repo = path.resolve(here, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(here, 'package.json'), 'utf8'));

const TARGETS = JSON.parse(fs.readFileSync(path.join(here, 'targets.json'), 'utf8'));

const wanted = [];
for (let i = 2; i < process.argv.length; i++) {
  if (process.argv[i] === '--target') {
    wanted.push(process.argv[++i]);
  } else {
    throw new Error(`unknown argument ${process.argv[i]}`);
  }
}
const targets = wanted.length === 0 ? TARGETS : wanted.map((w) => {
  const t = TARGETS.find((x) => x.vsce === w);
  if (!t) throw new Error(`unknown target ${w}; one of ${TARGETS.map((x) => x.vsce).join(', ')}`);
  return t;
});

const outDir = path.join(here, 'out', 'vsix');
const binDir = path.join(here, 'bin');
fs.mkdirSync(outDir, { recursive: true });
const vsce = path.join(here, 'node_modules', '.bin', 'vsce');

for (const t of targets) {
  const started = Date.now();
  fs.rmSync(binDir, { recursive: true, force: true });
  fs.mkdirSync(binDir);
  const bin = path.join(binDir, t.binary);
  execFileSync('go', [
    'build', '-trimpath',
    '-ldflags', `-s -w -X github.com/beeuni/beeuni-lsp/internal/version.Version=${pkg.version}`,
    '-o', bin, './cmd/beeuni-lsp',
  ], { cwd: repo, stdio: 'inherit', env: { ...process.env, GOOS: t.goos, GOARCH: t.goarch, CGO_ENABLED: '0' } });
  fs.chmodSync(bin, 0o755);
  const out = path.join(outDir, `${pkg.name}-${t.vsce}-${pkg.version}.vsix`);
  execFileSync(vsce, ['package', '--target', t.vsce, '--out', out, '--skip-license', '--no-dependencies'], { cwd: here, stdio: ['ignore', 'inherit', 'inherit'] });
  console.log(`packaged ${path.relative(repo, out)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
fs.rmSync(binDir, { recursive: true, force: true });
