// The packaging test: each .vsix built by `npm run package:all` holds the
// extension bundle and exactly one beeuni-lsp binary, executable, built for
// the .vsix's platform. Run after packaging: node --test test/package.test.mjs
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as zlib from 'node:zlib';

const here = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const pkg = JSON.parse(fs.readFileSync(path.join(here, 'package.json'), 'utf8'));
const vsixDir = process.env.BEEUNI_VSIX_DIR || path.join(here, 'out', 'vsix');

// What each platform's binary must be: its file name (targets.json) and the
// machine field of its executable format.
const FORMATS = {
  'linux-x64': { format: 'elf', machine: 0x3e },
  'linux-arm64': { format: 'elf', machine: 0xb7 },
  'darwin-x64': { format: 'macho', machine: 0x01000007 },
  'darwin-arm64': { format: 'macho', machine: 0x0100000c },
  'win32-x64': { format: 'pe', machine: 0x8664 },
};
const TARGETS = Object.fromEntries(
  JSON.parse(fs.readFileSync(path.join(here, 'targets.json'), 'utf8')).map((t) => {
    assert.ok(FORMATS[t.vsce], `no expected format for ${t.vsce}`);
    return [t.vsce, { binary: t.binary, ...FORMATS[t.vsce] }];
  }),
);

/** Reads a zip archive's entries: name, unix mode and content. */
export function readZip(buf) {
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 65535); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip archive: no end of central directory');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const entries = new Map();
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error(`bad central directory entry at ${p}`);
    const madeBy = buf.readUInt16LE(p + 4) >> 8;
    const method = buf.readUInt16LE(p + 10);
    const csize = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const extAttr = buf.readUInt32LE(p + 38);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    p += 46 + nameLen + extraLen + commentLen;
    const dataStart = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const raw = buf.subarray(dataStart, dataStart + csize);
    const mode = madeBy === 3 ? extAttr >>> 16 : 0; // 3: made on Unix, the mode is in the high bits
    entries.set(name, { mode, data: () => (method === 8 ? zlib.inflateRawSync(raw) : method === 0 ? raw : assert.fail(`method ${method}`)) });
  }
  return entries;
}

/** The executable format and machine of a binary, from its header. */
export function binaryArch(b) {
  if (b.readUInt32BE(0) === 0x7f454c46) return { format: 'elf', machine: b.readUInt16LE(18) };
  if (b.readUInt32LE(0) === 0xfeedfacf) return { format: 'macho', machine: b.readUInt32LE(4) };
  if (b.toString('latin1', 0, 2) === 'MZ') {
    const pe = b.readUInt32LE(0x3c);
    assert.equal(b.toString('latin1', pe, pe + 4), 'PE\0\0', 'PE signature');
    return { format: 'pe', machine: b.readUInt16LE(pe + 4) };
  }
  return { format: 'unknown', machine: 0 };
}

describe('each .vsix holds its platform binary', () => {
  for (const [target, want] of Object.entries(TARGETS)) {
    it(target, () => {
      const file = path.join(vsixDir, `${pkg.name}-${target}-${pkg.version}.vsix`);
      assert.ok(fs.existsSync(file), `${file} missing: run npm run package:all`);
      const entries = readZip(fs.readFileSync(file));
      const manifest = entries.get('extension.vsixmanifest')?.data().toString('utf8') ?? '';
      assert.match(manifest, new RegExp(`TargetPlatform="${target}"`), 'vsixmanifest target');
      const bins = [...entries.keys()].filter((n) => n.startsWith('extension/bin/'));
      assert.deepEqual(bins, [`extension/bin/${want.binary}`], 'exactly one binary');
      const bin = entries.get(`extension/bin/${want.binary}`);
      assert.ok(bin.mode & 0o100, `binary mode ${bin.mode.toString(8)} is not executable`);
      assert.deepEqual(binaryArch(bin.data()), { format: want.format, machine: want.machine }, 'binary architecture');
      assert.ok(entries.has('extension/dist/extension.js'), 'bundle');
      const packed = JSON.parse(entries.get('extension/package.json').data().toString('utf8'));
      assert.equal(packed.main, './dist/extension.js');
      // Every file the manifest names (icon, language, grammar, file icon) is packed.
      const named = [packed.icon, ...packed.contributes.languages.flatMap((l) => [l.configuration, l.icon.light, l.icon.dark]), ...packed.contributes.grammars.map((g) => g.path)];
      for (const f of named) {
        assert.ok(entries.has(`extension/${path.posix.normalize(f)}`), `${f} named in package.json but not packed`);
      }
      const stray = [...entries.keys()].filter((n) => /^extension\/(node_modules|src|test|scripts|e2e)\//.test(n) || n.endsWith('.map'));
      assert.deepEqual(stray, [], 'no sources, tests or node_modules');
    });
  }
});
