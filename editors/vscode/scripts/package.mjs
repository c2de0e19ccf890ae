// Builds .vsix files, each with the beeuni-lsp binary of its platform in
// bin/. The extension is packaged from a temporary copy of this folder, so
// that packaging leaves the work tree as it was.
//
//   node scripts/package.mjs                      the host's platform (npm run package)
//   node scripts/package.mjs --target win32-arm64 one target (repeatable)
//   node scripts/package.mjs --all                every target of targets.json (npm run package:all)
//   --version V       the version in the .vsix (default: package.json's); package.json is not changed
//   --binaries DIR    take each binary from DIR/<goos>_<goarch>/ (scripts/release.sh) instead of building it
//   --out DIR         where the .vsix files go (default: out/vsix)
//   --dist FILE       the release helper internal/release/cmd/dist, built (default: go run it)
//
// Each .vsix carries THIRD_PARTY_LICENSES.txt: the license texts of the Go
// modules linked into its binary and of the JavaScript bundled into
// dist/extension.js (scripts/build.mjs lists those in dist/licenses.json).
//
// Without --binaries, each binary is built as a release builds it
// (CGO_ENABLED=0, -trimpath, no build id), the version linked in. Set
// SOURCE_DATE_EPOCH for a reproducible .vsix (vsce then fixes the zip's
// times and order).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(path.dirname(fileURLToPath(import.meta.url))); // editors/vscode
const repo = path.resolve(here, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(here, 'package.json'), 'utf8'));
const TARGETS = JSON.parse(fs.readFileSync(path.join(here, 'targets.json'), 'utf8'));

/** vsce's name for a platform, by default the one this runs on (alpine: Linux without glibc, i.e. musl). */
export function hostTarget(...host) {
  const [platform, arch, glibc] = host.length ? host : [process.platform, process.arch, process.report?.getReport().header.glibcVersionRuntime];
  const osName = { linux: glibc ? 'linux' : 'alpine', darwin: 'darwin', win32: 'win32' }[platform];
  const cpu = { x64: 'x64', arm64: 'arm64' }[arch];
  if (!osName || !cpu) throw new Error(`no VS Code target for ${platform}-${arch}; one of ${TARGETS.map((t) => t.vsce).join(', ')} with --target`);
  return `${osName}-${cpu}`;
}

function parseArgs(argv) {
  const o = { targets: [], all: false, version: pkg.version, binaries: '', out: path.join(here, 'out', 'vsix'), dist: '' };
  for (let i = 0; i < argv.length; i++) {
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${argv[i]} needs a value`);
      return argv[++i];
    };
    switch (argv[i]) {
      case '--target': o.targets.push(value()); break;
      case '--all': o.all = true; break;
      case '--version': o.version = value(); break;
      case '--binaries': o.binaries = path.resolve(value()); break;
      case '--out': o.out = path.resolve(value()); break;
      case '--dist': o.dist = path.resolve(value()); break;
      default: throw new Error(`unknown argument ${argv[i]}`);
    }
  }
  return o;
}

function selectTargets(o) {
  if (o.all) return TARGETS;
  const names = o.targets.length ? o.targets : [hostTarget()];
  return names.map((w) => {
    const t = TARGETS.find((x) => x.vsce === w);
    if (!t) throw new Error(`unknown target ${w}; one of ${TARGETS.map((x) => x.vsce).join(', ')}`);
    return t;
  });
}

/** The binary for a target: from --binaries, or built into dir (once per Go platform). */
function binaryFor(t, o, dir) {
  if (o.binaries) return path.join(o.binaries, `${t.goos}_${t.goarch}`, t.binary);
  const bin = path.join(dir, `${t.goos}_${t.goarch}`, t.binary);
  if (!fs.existsSync(bin)) {
    execFileSync('go', [
      'build', '-trimpath', '-buildvcs=false',
      '-ldflags', `-s -w -buildid= -X github.com/beeuni/beeuni-lsp/internal/version.Linked=${o.version}`,
      '-o', bin, './cmd/beeuni-lsp',
    ], { cwd: repo, stdio: 'inherit', env: { ...process.env, GOOS: t.goos, GOARCH: t.goarch, CGO_ENABLED: '0' } });
  }
  return bin;
}

/** A copy of the extension's folder to package from: no outputs, no node_modules (linked). */
function stage(dir) {
  const skip = new Set(['node_modules', 'out', 'bin', 'dist', '.vscode-test']);
  fs.cpSync(here, dir, { recursive: true, filter: (src) => !skip.has(path.basename(src)) || path.dirname(src) !== here });
  fs.symlinkSync(path.join(here, 'node_modules'), path.join(dir, 'node_modules'), process.platform === 'win32' ? 'junction' : 'dir');
  fs.copyFileSync(path.join(repo, 'LICENSE'), path.join(dir, 'LICENSE'));
}

/** Writes THIRD_PARTY_LICENSES.txt into ext for the binary bin, with dist/licenses.json's JavaScript. */
function writeNotices(o, ext, bin) {
  const args = ['notices', '-bin', bin, '-js', path.join(ext, 'dist', 'licenses.json'), '-out', path.join(ext, 'THIRD_PARTY_LICENSES.txt')];
  const [cmd, argv] = o.dist ? [o.dist, args] : ['go', ['run', './internal/release/cmd/dist', ...args]];
  execFileSync(cmd, argv, { cwd: repo, stdio: 'inherit' });
}

function main() {
  const o = parseArgs(process.argv.slice(2));
  const targets = selectTargets(o);
  // vsce's own script, run by this Node (node_modules/.bin/vsce is a .cmd on Windows).
  const vsce = path.join(here, 'node_modules', '@vscode', 'vsce', 'vsce');
  if (!fs.existsSync(vsce)) throw new Error(`${vsce} missing: run npm ci in editors/vscode`);
  fs.mkdirSync(o.out, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'beeuni-vsix-'));
  try {
    const ext = path.join(tmp, 'extension');
    stage(ext);
    // The bundle's dist/licenses.json, for the license texts; vsce's
    // prepublish builds the same bundle again.
    execFileSync(process.execPath, [path.join(ext, 'scripts', 'build.mjs'), '--production'], { cwd: ext, stdio: 'inherit' });
    for (const t of targets) {
      const started = Date.now();
      const binDir = path.join(ext, 'bin');
      fs.rmSync(binDir, { recursive: true, force: true });
      fs.mkdirSync(binDir);
      const bin = path.join(binDir, t.binary);
      fs.copyFileSync(binaryFor(t, o, path.join(tmp, 'go')), bin);
      fs.chmodSync(bin, 0o755);
      writeNotices(o, ext, bin);
      const out = path.join(o.out, `${pkg.name}-${t.vsce}-${o.version}.vsix`);
      const version = o.version === pkg.version ? [] : [o.version, '--no-update-package-json', '--no-git-tag-version'];
      execFileSync(process.execPath, [vsce, 'package', ...version, '--target', t.vsce, '--out', out, '--no-dependencies'], { cwd: ext, stdio: ['ignore', 'inherit', 'inherit'] });
      console.log(`packaged ${path.relative(process.cwd(), out)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
