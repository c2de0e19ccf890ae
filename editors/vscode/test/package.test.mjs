// scripts/package.mjs: which VS Code target `npm run package` builds.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { describe, it } from 'node:test';
import { hostTarget } from '../scripts/package.mjs';

describe('npm run package builds the host platform', () => {
  const cases = [
    [['linux', 'x64', '2.36'], 'linux-x64'],
    [['linux', 'arm64', '2.36'], 'linux-arm64'],
    [['linux', 'x64', undefined], 'alpine-x64'],
    [['linux', 'arm64', undefined], 'alpine-arm64'],
    [['darwin', 'x64', undefined], 'darwin-x64'],
    [['darwin', 'arm64', undefined], 'darwin-arm64'],
    [['win32', 'x64', undefined], 'win32-x64'],
    [['win32', 'arm64', undefined], 'win32-arm64'],
  ];
  const targets = JSON.parse(fs.readFileSync(new URL('../targets.json', import.meta.url), 'utf8')).map((t) => t.vsce);
  for (const [args, want] of cases) {
    it(`${args[0]} ${args[1]}${args[0] === 'linux' ? (args[2] ? ' glibc' : ' musl') : ''}: ${want}`, () => {
      assert.equal(hostTarget(...args), want);
      assert.ok(targets.includes(want), `${want} is in targets.json`);
    });
  }
  it('every target of targets.json is some host', () => {
    assert.deepEqual([...targets].sort(), cases.map((c) => c[1]).sort());
  });
  it('refuses a platform without a target', () => {
    assert.throws(() => hostTarget('freebsd', 'x64', undefined), /no VS Code target for freebsd-x64/);
    assert.throws(() => hostTarget('linux', 'ia32', '2.36'), /no VS Code target for linux-ia32/);
  });
  it('names this machine', () => {
    assert.ok(targets.includes(hostTarget()));
  });
});
