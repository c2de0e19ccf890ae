// scripts/publish.mjs: which .vsix files it publishes, with which tool.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const here = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const publish = (...args) =>
  spawnSync(process.execPath, [path.join(here, 'scripts', 'publish.mjs'), ...args], {
    cwd: here,
    encoding: 'utf8',
    env: { ...process.env, VSCE_PAT: '', OVSX_PAT: '' },
  });

describe('node scripts/publish.mjs', () => {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'publish-test-'));
  after(() => fs.rmSync(dist, { recursive: true, force: true }));
  for (const f of ['beeuni-lsp-win32-x64-1.2.3.vsix', 'beeuni-lsp-linux-x64-1.2.3.vsix', 'beeuni-lsp-linux-x64-1.2.2.vsix', 'other-linux-x64-1.2.3.vsix', 'beeuni-lsp_1.2.3_linux_amd64.tar.gz']) {
    fs.writeFileSync(path.join(dist, f), '');
  }

  for (const tool of ['vsce', 'ovsx']) {
    it(`${tool}: every .vsix of --dir with --version, by the lockfile's ${tool}`, () => {
      const r = publish(tool, '--dir', dist, '--version', 'v1.2.3', '--dry-run');
      assert.equal(r.status, 0, r.stderr);
      const bin = path.join('node_modules', '.bin', tool);
      assert.deepEqual(r.stdout.trim().split('\n'), [
        `${bin} publish --packagePath ${path.join(dist, 'beeuni-lsp-linux-x64-1.2.3.vsix')}`,
        `${bin} publish --packagePath ${path.join(dist, 'beeuni-lsp-win32-x64-1.2.3.vsix')}`,
      ]);
    });
  }
  it('fails when the folder has no .vsix of the version', () => {
    const r = publish('ovsx', '--dir', dist, '--version', '9.9.9', '--dry-run');
    assert.equal(r.status, 1);
    assert.match(r.stderr, /no beeuni-lsp-<target>-9\.9\.9\.vsix in /);
  });
  it('needs the token', () => {
    const r = publish('ovsx', '--dir', dist, '--version', '1.2.3');
    assert.equal(r.status, 1);
    assert.match(r.stderr, /OVSX_PAT is not set/);
  });
  it('refuses an unknown tool or argument', () => {
    assert.equal(publish('npm', '--dry-run').status, 2);
    assert.equal(publish('vsce', '--out', dist).status, 2);
    assert.equal(publish('vsce', '--dir').status, 2);
  });
});
