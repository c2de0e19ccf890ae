// The schema in a real yaml-language-server (the one the Neovim
// coexistence test installs, editors/neovim/test/yamlls), mapped to
// beeuni.yaml the way `yaml.schemas` does it: completion offers the Beeuni
// tools and their `beeuni:` values, a wrong `beeuni:` value gets a
// diagnostic, examples/shop gets none and examples/mistakes gets one on
// each line whose mistake a schema can express (docs/schema.md), and agents
// of shapes beeuni-lsp does not read get none.
//
//   PATH=<Node 22+>:$PATH node --test schema/test/yamlls.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { Client } from './lsp.mjs';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const server = join(repo, 'editors/neovim/test/yamlls/node_modules/yaml-language-server/bin/yaml-language-server');
const schemaURI = pathToFileURL(join(repo, 'schema/beeuni.schema.json')).href;

let client, dir;
let version = 0;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'beeuni-schema-'));
  const settings = {
    yaml: {
      validate: true, completion: true, hover: true,
      schemaStore: { enable: false }, // no network: the schema comes from the file
      schemas: { [schemaURI]: 'beeuni.yaml' },
    },
    redhat: { telemetry: { enabled: false } },
  };
  client = new Client(process.execPath, [server, '--stdio'], settings);
  await client.request('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(dir).href,
    workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'project' }],
    capabilities: {
      workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: false } },
      textDocument: {
        completion: { completionItem: { snippetSupport: true } },
        publishDiagnostics: {},
        hover: { contentFormat: ['markdown', 'plaintext'] },
      },
    },
  });
  client.notify('initialized', {});
  client.notify('workspace/didChangeConfiguration', { settings });
});

after(async () => {
  await client?.close();
  rmSync(dir, { recursive: true, force: true });
});

// open opens text as <dir>/<sub>/beeuni.yaml and returns its uri.
function open(sub, text) {
  const path = join(dir, sub, 'beeuni.yaml');
  const uri = pathToFileURL(path).href;
  client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: ++version, text } });
  return uri;
}

// diagnostics waits for the document's diagnostics: the first non-empty
// publication, or the last one after settle ms when none is (a clean file).
async function diagnostics(uri, { clean = false } = {}) {
  const mine = (m) => m.method === 'textDocument/publishDiagnostics' && m.params.uri === uri;
  if (!clean) {
    const m = await client.waitFor((m) => mine(m) && m.params.diagnostics.length > 0, 20000, `diagnostics of ${uri}`);
    return m.params.diagnostics;
  }
  await client.waitFor(mine, 20000, `diagnostics of ${uri}`);
  await new Promise((r) => setTimeout(r, 1500));
  return client.notes.filter(mine).at(-1).params.diagnostics;
}

const labels = (res) => (Array.isArray(res) ? res : res?.items ?? []).map((i) => i.label);

test('a wrong beeuni: value gets a diagnostic on its line, from the schema', async () => {
  const uri = open('wrong', 'tools:\n  memory: beeuni:memory\n  web_search: beeuni:image_search\n');
  const ds = await diagnostics(uri);
  assert.deepEqual(ds.map((d) => d.range.start.line), [2], JSON.stringify(ds));
  assert.match(ds[0].source ?? '', /beeuni/i, 'the diagnostic names the schema');
});

test('completion offers the Beeuni tools as keys and beeuni:<name> as the value', async () => {
  const text = 'tools:\n  memory: beeuni:memory\n  web_search: \n  \n';
  const uri = open('complete', text);
  const value = await client.request('textDocument/completion', { textDocument: { uri }, position: { line: 2, character: 14 } });
  assert.ok(labels(value).includes('beeuni:web_search'), `value completion: ${labels(value)}`);
  const key = await client.request('textDocument/completion', { textDocument: { uri }, position: { line: 3, character: 2 } });
  for (const name of ['image_search', 'scrape_webpage', 'show']) {
    assert.ok(labels(key).includes(name), `key completion lacks ${name}: ${labels(key)}`);
  }
  const hover = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 4 } });
  assert.match(JSON.stringify(hover?.contents ?? ''), /The Beeuni tool memory/, 'the hover shows the description');
});

test('completion offers all and none for an agent\'s tools', async () => {
  const uri = open('agent', 'agents:\n  support:\n    tools: \n');
  const res = await client.request('textDocument/completion', { textDocument: { uri }, position: { line: 2, character: 11 } });
  for (const word of ['all', 'none']) {
    assert.ok(labels(res).includes(word), `agent tools completion lacks ${word}: ${labels(res)}`);
  }
});

test('examples/shop and an empty manifest get no diagnostic', async () => {
  const shop = open('shop', readFileSync(join(repo, 'examples/shop/beeuni.yaml'), 'utf8'));
  assert.deepEqual(await diagnostics(shop, { clean: true }), []);
  const empty = open('empty', '');
  assert.deepEqual(await diagnostics(empty, { clean: true }), []);
});

test('examples/mistakes: a diagnostic on each mistake a schema expresses, and only there', async () => {
  const text = readFileSync(join(repo, 'examples/mistakes/beeuni.yaml'), 'utf8');
  const uri = open('mistakes', text);
  // The lines (1-based) whose comment names a rule the schema expresses:
  // I2 (leading ..), T1, T2 (error), T3, T4, T5, T7, A3; and T10, the
  // duplicate key yaml-language-server reports itself.
  const lines = text.split('\n');
  const want = [];
  lines.forEach((l, i) => {
    if (/# (I2|T1|T2|T3|T4|T5|T7|T10|A3):/.test(l)) want.push(i + 1);
  });
  await diagnostics(uri);
  await new Promise((r) => setTimeout(r, 1000));
  const ds = client.notes.filter((m) => m.method === 'textDocument/publishDiagnostics' && m.params.uri === uri).at(-1).params.diagnostics;
  const got = [...new Set(ds.map((d) => d.range.start.line + 1))].sort((a, b) => a - b);
  assert.deepEqual(got, want, JSON.stringify(ds.map((d) => `${d.range.start.line + 1}: ${d.message}`), null, 1));
});

// manifestOf returns the beeuni.yaml of a txtar archive.
function manifestOf(archive) {
  const parts = readFileSync(archive, 'utf8').split(/^-- (.+) --\n/m);
  return parts[parts.indexOf('beeuni.yaml') + 1];
}

test('agents of shapes beeuni-lsp does not read get no diagnostic; a wrong tools value beside them does', async () => {
  const text = manifestOf(join(repo, 'internal/schema/testdata/agree/agent_values.txtar'));
  const uri = open('agents', text);
  const want = text.split('\n').findIndex((l) => l.includes('tools: [read, 7]'));
  await diagnostics(uri);
  await new Promise((r) => setTimeout(r, 1000));
  const ds = client.notes.filter((m) => m.method === 'textDocument/publishDiagnostics' && m.params.uri === uri).at(-1).params.diagnostics;
  assert.deepEqual([...new Set(ds.map((d) => d.range.start.line))], [want], JSON.stringify(ds));
});
