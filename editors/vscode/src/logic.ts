// Client logic with no `vscode` import, so that Node's test runner covers it.
import * as path from 'node:path';
import targets from '../targets.json';

/** The VS Code platform targets we publish, each with its Go build. */
export interface Target {
  vsce: string; // `vsce package --target`
  goos: string;
  goarch: string;
  binary: string; // file name inside the extension's bin/ folder
}

// One list for the packaging script, the packaging test and the client.
export const TARGETS: readonly Target[] = targets;

/** The bundled binary's file name on a Node platform. */
export function bundledBinaryName(platform: string): string {
  return platform === 'win32' ? 'beeuni-lsp.exe' : 'beeuni-lsp';
}

/** Expands a leading `~` and `${workspaceFolder}` in a configured path. */
export function expandPath(p: string, home: string, workspaceFolder: string | undefined): string {
  let out = p.trim();
  if (out === '~' || out.startsWith('~/') || out.startsWith('~\\')) {
    out = home + out.slice(1);
  }
  if (workspaceFolder !== undefined) {
    out = out.split('${workspaceFolder}').join(workspaceFolder);
  }
  return out;
}

export interface ServerCommandInput {
  configuredPath: string | undefined; // beeuni.server.path
  configuredArgs: readonly string[] | undefined; // beeuni.server.args
  extensionPath: string;
  platform: string; // process.platform
  home: string;
  workspaceFolder: string | undefined;
  exists: (file: string) => boolean;
}

export interface ServerCommand {
  command: string;
  args: string[];
  source: 'setting' | 'bundled' | 'path';
}

/**
 * Which binary to run: the `beeuni.server.path` setting, else the binary
 * shipped in the extension's bin/ folder, else `beeuni-lsp` on PATH.
 */
export function resolveServerCommand(input: ServerCommandInput): ServerCommand {
  const args = input.configuredArgs && input.configuredArgs.length > 0 ? [...input.configuredArgs] : ['serve'];
  const configured = (input.configuredPath ?? '').trim();
  if (configured !== '') {
    let command = expandPath(configured, input.home, input.workspaceFolder);
    if (!path.isAbsolute(command) && command.includes('/') && input.workspaceFolder !== undefined) {
      command = path.join(input.workspaceFolder, command);
    }
    return { command, args, source: 'setting' };
  }
  const bundled = path.join(input.extensionPath, 'bin', bundledBinaryName(input.platform));
  if (input.exists(bundled)) {
    return { command: bundled, args, source: 'bundled' };
  }
  return { command: bundledBinaryName(input.platform), args, source: 'path' };
}

/** The folders holding a beeuni.yaml, given the manifests' paths, sorted and unique. */
export function projectRoots(manifests: readonly string[]): string[] {
  const roots = new Set<string>();
  for (const m of manifests) {
    if (path.basename(m) === 'beeuni.yaml') {
      roots.add(path.dirname(m));
    }
  }
  return [...roots].sort();
}

/** The nearest root that holds file (the deepest one), or undefined. */
export function rootOf(file: string, roots: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const root of roots) {
    const rel = path.relative(root, file);
    const inside = rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
    if (inside && (best === undefined || root.length > best.length)) {
      best = root;
    }
  }
  return best;
}

/** The language of beeuni.yaml files (package.json's `contributes.languages`). */
export const LANGUAGE_ID = 'beeuni';

/** The languages the server reads: manifests, imported YAML files, tool modules. */
export const LANGUAGES = [LANGUAGE_ID, 'yaml', 'typescript', 'javascript'] as const;

/**
 * The document selector (LSP form): the four languages on disk, wherever
 * they are, so that a project created later needs no restart. The
 * middleware then sends the server only the documents servedFile accepts.
 */
export function documentSelector(): { scheme: string; language: string }[] {
  return LANGUAGES.map((language) => ({ scheme: 'file', language }));
}

/**
 * Whether the client sends the server a document (and asks it for
 * answers): a beeuni.yaml anywhere (a lone file too); a YAML, TypeScript
 * or JavaScript file inside a folder tree holding beeuni.yaml, unless it
 * lies in a hidden folder (.github/workflows/...) or in node_modules under
 * that root, where the server has nothing to say. The server answers the
 * files of a project tree that are not its manifest, imports or modules
 * with complete empty results.
 */
export function servedFile(file: string, isFile: (p: string) => boolean): boolean {
  if (path.basename(file) === 'beeuni.yaml') {
    return true;
  }
  const root = findRoot(file, isFile);
  if (root === undefined) {
    return false;
  }
  const parts = path.relative(root, path.dirname(file)).split(path.sep);
  return !parts.some((part) => part === 'node_modules' || part.startsWith('.'));
}

/** The nearest folder at or above file's folder holding beeuni.yaml, or undefined. */
export function findRoot(file: string, isFile: (p: string) => boolean): string | undefined {
  let dir = path.dirname(file);
  for (;;) {
    if (isFile(path.join(dir, 'beeuni.yaml'))) {
      return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) {
      return undefined;
    }
    dir = parent;
  }
}

/** The middleware hooks of vscode-languageclient that carry a document (first argument) and `next` (last). */
export const DOCUMENT_HOOKS = [
  'didOpen', 'didChange', 'willSave', 'willSaveWaitUntil', 'didSave', 'didClose',
  'provideCompletionItem', 'provideHover', 'provideDefinition', 'provideReferences',
  'provideDocumentHighlights', 'provideDocumentSymbols', 'provideCodeActions', 'provideCodeLenses',
  'provideDocumentLinks', 'provideRenameEdits', 'prepareRename', 'provideFoldingRanges', 'provideInlayHints',
] as const;

type Hook = (...args: unknown[]) => unknown;

/**
 * A middleware that passes a hook on only for the documents served(uri)
 * accepts; the others are neither sent to the server nor asked about
 * (the hook answers undefined: no result from this server). The
 * decision is kept per document from the first hook until didClose, so a
 * document is opened, changed and closed on the server consistently.
 */
export function servedMiddleware(served: (uri: { fsPath: string; scheme: string; toString(): string }) => boolean): Record<(typeof DOCUMENT_HOOKS)[number], Hook> {
  const decided = new Map<string, boolean>();
  const decide = (uri: { fsPath: string; scheme: string; toString(): string }): boolean => {
    const key = uri.toString();
    let ok = decided.get(key);
    if (ok === undefined) {
      ok = uri.scheme === 'file' && served(uri);
      decided.set(key, ok);
    }
    return ok;
  };
  const out = {} as Record<(typeof DOCUMENT_HOOKS)[number], Hook>;
  for (const name of DOCUMENT_HOOKS) {
    out[name] = (...args: unknown[]) => {
      const first = args[0] as { uri?: { fsPath: string; scheme: string }; document?: { uri: { fsPath: string; scheme: string } } };
      const uri = (first.uri ?? first.document?.uri) as { fsPath: string; scheme: string; toString(): string };
      const next = args[args.length - 1] as Hook;
      const ok = decide(uri);
      if (name === 'didClose') {
        decided.delete(uri.toString());
      }
      if (!ok) {
        if (name === 'willSaveWaitUntil') {
          return Promise.resolve([]);
        }
        return name.startsWith('did') || name === 'willSave' ? Promise.resolve() : undefined;
      }
      return next(...args.slice(0, -1));
    };
  }
  return out;
}

/**
 * Restarts after crashes, at most `max` times within `windowMs`; past that
 * the client stays stopped and says so.
 */
export class CrashTracker {
  private readonly times: number[] = [];
  constructor(
    readonly max = 4,
    readonly windowMs = 3 * 60 * 1000,
  ) {}

  /** Records a crash at `now`; true when the server may be restarted. */
  crashed(now: number): boolean {
    this.times.push(now);
    while (this.times.length > 0 && now - this.times[0] > this.windowMs) {
      this.times.shift();
    }
    return this.times.length <= this.max;
  }

  get recent(): number {
    return this.times.length;
  }

  message(restart: boolean): string {
    const minutes = Math.round(this.windowMs / 60000);
    if (restart) {
      return `beeuni-lsp stopped unexpectedly; restarting it (${this.recent} of ${this.max} restarts allowed in ${minutes} minutes).`;
    }
    return `beeuni-lsp crashed ${this.recent} times in ${minutes} minutes and will not be restarted. See "Beeuni: Show Output", then run "Beeuni: Restart Server".`;
  }
}

export type ServerState = 'starting' | 'running' | 'stopped' | 'crashed';

/** The language status item's text and detail. */
export function statusText(state: ServerState, version: string | undefined): { text: string; detail: string; busy: boolean; error: boolean } {
  const v = version ? ` ${version}` : '';
  switch (state) {
    case 'starting':
      return { text: 'beeuni-lsp: starting', detail: 'Starting the language server', busy: true, error: false };
    case 'running':
      return { text: `beeuni-lsp${v}`, detail: 'Running', busy: false, error: false };
    case 'stopped':
      return { text: 'beeuni-lsp: stopped', detail: 'Run "Beeuni: Restart Server" to start it', busy: false, error: false };
    case 'crashed':
      return { text: 'beeuni-lsp: crashed', detail: 'See "Beeuni: Show Output"', busy: false, error: true };
  }
}

/** The result of the server command `beeuni.sessionTools`. */
export interface SessionTools {
  manifest?: string;
  tools_key?: boolean;
  tools?: { name: string; kind: string; source: string }[];
  removed?: string[];
  table?: string;
  agents?: { name: string; tools?: unknown[] }[];
}

function toolName(t: unknown): string {
  if (typeof t === 'string') {
    return t;
  }
  if (t && typeof t === 'object' && 'name' in t) {
    return String((t as { name: unknown }).name);
  }
  return JSON.stringify(t);
}

/** The readable view of `Beeuni: Show Session Tools`. */
export function formatSessionTools(r: SessionTools): string {
  const lines: string[] = [];
  if (r.manifest) {
    lines.push(`# Tools a session of ${r.manifest} gets`, '');
  }
  const table = (r.table ?? '').replace(/\n+$/, '');
  if (table !== '') {
    lines.push(...table.split('\n'));
  }
  const agents = r.agents ?? [];
  if (agents.length > 0) {
    lines.push('', 'AGENT TOOLS');
    const width = Math.max(...agents.map((a) => a.name.length));
    for (const a of agents) {
      const names = (a.tools ?? []).map(toolName);
      lines.push(`${a.name.padEnd(width + 2)}${names.length > 0 ? names.join(', ') : '(none)'}`);
    }
  }
  if (lines.length === 0) {
    lines.push('(no tools)');
  }
  return lines.join('\n') + '\n';
}

/**
 * Which project a command is about: the one holding the active file, else
 * the only one; undefined when the user must choose.
 */
export function pickProject(activeFile: string | undefined, roots: readonly string[]): string | undefined {
  if (activeFile !== undefined) {
    const root = rootOf(activeFile, roots);
    if (root !== undefined) {
      return root;
    }
  }
  return roots.length === 1 ? roots[0] : undefined;
}
