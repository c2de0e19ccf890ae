import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
  bundledBinaryName,
  CrashTracker,
  documentSelector,
  expandPath,
  formatSessionTools,
  pickProject,
  projectRoots,
  resolveServerCommand,
  rootOf,
  type ServerCommandInput,
  statusText,
  TARGETS,
} from '../src/logic';

describe('resolveServerCommand', () => {
  const base: ServerCommandInput = {
    configuredPath: '',
    configuredArgs: undefined,
    extensionPath: '/ext',
    platform: 'linux',
    home: '/home/u',
    workspaceFolder: '/ws',
    exists: (f: string) => f === '/ext/bin/beeuni-lsp',
  };
  const cases: { name: string; input: Partial<ServerCommandInput>; want: { command: string; args: string[]; source: string } }[] = [
    { name: 'bundled binary', input: {}, want: { command: '/ext/bin/beeuni-lsp', args: ['serve'], source: 'bundled' } },
    { name: 'no bundled binary: PATH', input: { exists: () => false }, want: { command: 'beeuni-lsp', args: ['serve'], source: 'path' } },
    { name: 'windows PATH name', input: { exists: () => false, platform: 'win32' }, want: { command: 'beeuni-lsp.exe', args: ['serve'], source: 'path' } },
    { name: 'setting wins, ~ expanded', input: { configuredPath: '~/go/bin/beeuni-lsp' }, want: { command: '/home/u/go/bin/beeuni-lsp', args: ['serve'], source: 'setting' } },
    { name: 'workspaceFolder expanded', input: { configuredPath: '${workspaceFolder}/bin/beeuni-lsp' }, want: { command: '/ws/bin/beeuni-lsp', args: ['serve'], source: 'setting' } },
    { name: 'relative path from the workspace', input: { configuredPath: 'bin/beeuni-lsp' }, want: { command: path.join('/ws', 'bin/beeuni-lsp'), args: ['serve'], source: 'setting' } },
    { name: 'bare name stays a PATH lookup', input: { configuredPath: 'beeuni-lsp-dev' }, want: { command: 'beeuni-lsp-dev', args: ['serve'], source: 'setting' } },
    { name: 'custom args', input: { configuredArgs: ['serve', '--log', 'x'] }, want: { command: '/ext/bin/beeuni-lsp', args: ['serve', '--log', 'x'], source: 'bundled' } },
    { name: 'empty args mean serve', input: { configuredArgs: [] }, want: { command: '/ext/bin/beeuni-lsp', args: ['serve'], source: 'bundled' } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(resolveServerCommand({ ...base, ...c.input }), c.want);
    });
  }
});

describe('expandPath', () => {
  it('leaves other paths alone', () => {
    assert.equal(expandPath(' /a/~b ', '/h', undefined), '/a/~b');
    assert.equal(expandPath('${workspaceFolder}/x', '/h', undefined), '${workspaceFolder}/x');
  });
});

describe('project roots', () => {
  const roots = projectRoots(['/m/apps/shop/beeuni.yaml', '/m/beeuni.yaml', '/m/beeuni.yaml', '/m/other.yaml']);
  it('dedups and sorts, ignoring other files', () => {
    assert.deepEqual(roots, ['/m', '/m/apps/shop']);
  });
  it('rootOf picks the nearest enclosing root', () => {
    assert.equal(rootOf('/m/apps/shop/tools/a.ts', roots), '/m/apps/shop');
    assert.equal(rootOf('/m/apps/shopping/x.yaml', roots), '/m');
    assert.equal(rootOf('/m', roots), '/m');
    assert.equal(rootOf('/elsewhere/beeuni.yaml', roots), undefined);
  });
  it('pickProject: the active file, else the only project, else ask', () => {
    assert.equal(pickProject('/m/apps/shop/beeuni.yaml', roots), '/m/apps/shop');
    assert.equal(pickProject('/elsewhere/a.yaml', roots), undefined);
    assert.equal(pickProject(undefined, ['/only']), '/only');
    assert.equal(pickProject(undefined, []), undefined);
  });
  it('documentSelector covers the three languages inside each root only', () => {
    assert.deepEqual(documentSelector(['file:///p']), [
      { scheme: 'file', language: 'yaml', pattern: { baseUri: 'file:///p', pattern: '**/*' } },
      { scheme: 'file', language: 'typescript', pattern: { baseUri: 'file:///p', pattern: '**/*' } },
      { scheme: 'file', language: 'javascript', pattern: { baseUri: 'file:///p', pattern: '**/*' } },
    ]);
    assert.deepEqual(documentSelector([]), []);
  });
});

describe('CrashTracker', () => {
  it('allows max restarts within the window, then refuses', () => {
    const t = new CrashTracker(2, 1000);
    assert.equal(t.crashed(0), true);
    assert.equal(t.crashed(10), true);
    assert.equal(t.crashed(20), false);
    assert.match(t.message(false), /crashed 3 times in 0 minutes and will not be restarted/);
  });
  it('forgets crashes older than the window', () => {
    const t = new CrashTracker(1, 1000);
    assert.equal(t.crashed(0), true);
    assert.equal(t.crashed(2000), true);
    assert.equal(t.recent, 1);
    assert.equal(t.message(true), 'beeuni-lsp stopped unexpectedly; restarting it (1 of 1 restarts allowed in 0 minutes).');
  });
});

describe('statusText', () => {
  it('shows the version when running and an error when crashed', () => {
    assert.equal(statusText('running', '1.2.3').text, 'beeuni-lsp 1.2.3');
    assert.equal(statusText('running', undefined).text, 'beeuni-lsp');
    assert.equal(statusText('starting', undefined).busy, true);
    assert.equal(statusText('crashed', '1').error, true);
  });
});

describe('formatSessionTools', () => {
  it('prints the tools ls table, then each agent', () => {
    const text = formatSessionTools({
      manifest: 'beeuni.yaml',
      table: 'NAME        KIND    SOURCE\nweb_search  beeuni  beeuni:web_search\n',
      agents: [
        { name: 'support', tools: ['read', { name: 'web_search' }] },
        { name: 'x', tools: [] },
      ],
    });
    assert.equal(
      text,
      [
        '# Tools a session of beeuni.yaml gets',
        '',
        'NAME        KIND    SOURCE',
        'web_search  beeuni  beeuni:web_search',
        '',
        'AGENT TOOLS',
        'support  read, web_search',
        'x        (none)',
        '',
      ].join('\n'),
    );
  });
  it('says when there is nothing', () => {
    assert.equal(formatSessionTools({}), '(no tools)\n');
  });
});

describe('targets', () => {
  it('cover the eight platforms, with .exe only on Windows', () => {
    assert.deepEqual(
      TARGETS.map((t) => t.vsce),
      ['linux-x64', 'linux-arm64', 'alpine-x64', 'alpine-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64', 'win32-arm64'],
    );
    for (const t of TARGETS) {
      assert.equal(t.binary, bundledBinaryName(t.goos === 'windows' ? 'win32' : t.goos));
    }
  });
});
