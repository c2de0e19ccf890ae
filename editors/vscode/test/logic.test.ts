import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import pkg from '../package.json';
import {
  bundledBinaryName,
  CrashTracker,
  documentSelector,
  expandPath,
  formatSessionTools,
  pickProject,
  findRoot,
  LANGUAGE_ID,
  projectRoots,
  resolveServerCommand,
  rootOf,
  servedFile,
  servedMiddleware,
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
  it('documentSelector: the four languages on disk, with no root in it (no restart when projects change)', () => {
    assert.deepEqual(documentSelector(), [
      { scheme: 'file', language: 'beeuni' },
      { scheme: 'file', language: 'yaml' },
      { scheme: 'file', language: 'typescript' },
      { scheme: 'file', language: 'javascript' },
    ]);
  });
});

describe('the documents the server is sent', () => {
  const manifests = new Set(['/m/beeuni.yaml', '/m/apps/shop/beeuni.yaml']);
  const isFile = (f: string) => manifests.has(f);
  const cases: [string, boolean][] = [
    ['/m/beeuni.yaml', true],
    ['/lone/beeuni.yaml', true], // a manifest alone, no project around it yet
    ['/m/shared.yaml', true], // maybe an import
    ['/m/tools/a.ts', true], // maybe a tool module
    ['/m/apps/shop/integrations/crm.mjs', true],
    ['/m/.github/workflows/ci.yml', false],
    ['/m/apps/shop/.config/x.yaml', false],
    ['/m/node_modules/zod/index.js', false],
    ['/m/apps/shop/node_modules/x/y.ts', false],
    ['/elsewhere/notes.yaml', false],
  ];
  for (const [file, want] of cases) {
    it(`${file}: ${want ? 'sent' : 'not sent'}`, () => {
      assert.equal(servedFile(file, isFile), want);
    });
  }
  it('findRoot: the nearest folder holding beeuni.yaml', () => {
    assert.equal(findRoot('/m/apps/shop/tools/a.ts', isFile), '/m/apps/shop');
    assert.equal(findRoot('/m/apps/x.yaml', isFile), '/m');
    assert.equal(findRoot('/elsewhere/x.yaml', isFile), undefined);
  });

  it('the middleware passes on only the documents served() accepts, open to close', async () => {
    const uri = (p: string) => ({ fsPath: p, scheme: 'file', toString: () => `file://${p}` });
    let served = (u: { fsPath: string }) => u.fsPath.startsWith('/p/');
    const m = servedMiddleware((u) => served(u));
    const calls: string[] = [];
    const next = (name: string) => (...args: unknown[]) => {
      calls.push(`${name} ${(args[0] as { uri?: { fsPath: string }; document?: { uri: { fsPath: string } } }).uri?.fsPath ?? (args[0] as { document: { uri: { fsPath: string } } }).document.uri.fsPath}`);
      return 'answer';
    };
    const inside = { uri: uri('/p/beeuni.yaml') };
    const outside = { uri: uri('/q/ci.yml') };
    await m.didOpen(inside, next('didOpen'));
    await m.didOpen(outside, next('didOpen'));
    assert.equal(m.provideHover(inside, {}, {}, next('hover')), 'answer');
    assert.equal(m.provideHover(outside, {}, {}, next('hover')), undefined);
    assert.deepEqual(await m.willSaveWaitUntil({ document: outside }, next('willSaveWaitUntil')), []);
    // The decision holds until didClose, even if served() would now say otherwise.
    served = () => true;
    await m.didChange({ document: outside }, next('didChange'));
    await m.didClose(outside, next('didClose'));
    await m.didOpen(outside, next('didOpen'));
    assert.deepEqual(calls, ['didOpen /p/beeuni.yaml', 'hover /p/beeuni.yaml', 'didOpen /q/ci.yml']);
    // Not a file on disk: never sent.
    await m.didOpen({ uri: { fsPath: '/p/x.yaml', scheme: 'untitled', toString: () => 'untitled:x' } }, next('didOpen'));
    assert.equal(calls.length, 3);
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

describe('package.json', () => {
  it('contributes the beeuni language for beeuni.yaml, activates on it, keeps Red Hat YAML from validating it', () => {
    const lang = pkg.contributes.languages.find((l) => l.id === LANGUAGE_ID);
    assert.deepEqual(lang?.filenames, ['beeuni.yaml']);
    assert.ok(pkg.activationEvents.includes(`onLanguage:${LANGUAGE_ID}`));
    assert.deepEqual(pkg.contributes.grammars.map((g) => g.language), [LANGUAGE_ID]);
    assert.equal(pkg.contributes.configurationDefaults[`[${LANGUAGE_ID}]`]['yaml.validate'], false);
  });
  it('shows the project commands only while the server runs in a project', () => {
    const when = Object.fromEntries(pkg.contributes.menus.commandPalette.map((m) => [m.command, m.when]));
    assert.equal(when['beeuni.ejectTool'], 'beeuni.serverRunning && beeuni.hasProject');
    assert.equal(when['beeuni.showSessionTools'], 'beeuni.serverRunning && beeuni.hasProject');
    for (const c of pkg.contributes.commands) {
      assert.ok(when[c.command], `${c.command} has a when clause`);
    }
  });
});
