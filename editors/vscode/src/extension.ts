// The VS Code client of beeuni-lsp: starts the server, keeps it running,
// and adds the Beeuni commands and a language status item.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  CloseAction,
  ErrorAction,
  ExecuteCommandRequest,
  LanguageClient,
  type LanguageClientOptions,
  RevealOutputChannelOn,
  type ServerOptions,
  State,
  TransportKind,
} from 'vscode-languageclient/node';
import {
  CrashTracker,
  documentSelector,
  findRoot,
  formatSessionTools,
  LANGUAGE_ID,
  pickProject,
  projectRoots,
  resolveServerCommand,
  servedFile,
  servedMiddleware,
  type ServerState,
  type SessionTools,
  statusText,
} from './logic';
import { AgentViews } from './agentviewDocs';

const TOOLS_SCHEME = 'beeuni-tools';

class Extension implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private roots: string[] = [];
  private state: ServerState = 'stopped';
  private crashes = new CrashTracker();
  private readonly output = vscode.window.createOutputChannel('Beeuni', { log: true });
  private readonly traceOutput = vscode.window.createOutputChannel('Beeuni Trace', { log: true });
  // Shown on manifests: beeuni.yaml files.
  private readonly status = vscode.languages.createLanguageStatusItem('beeuni.server', { language: LANGUAGE_ID });
  private readonly toolsViews = new Map<string, string>();
  private readonly toolsViewChanged = new vscode.EventEmitter<vscode.Uri>();
  private readonly disposables: vscode.Disposable[] = [];
  private clientDisposables: vscode.Disposable[] = [];

  constructor(private readonly context: vscode.ExtensionContext) {
    this.status.name = 'Beeuni language server';
    this.status.command = { title: 'Show Output', command: 'beeuni.showOutput' };
    this.setState('stopped');
    this.disposables.push(
      this.output,
      this.traceOutput,
      this.status,
      this.toolsViewChanged,
      vscode.commands.registerCommand('beeuni.ejectTool', (name?: string) => this.ejectTool(name)),
      vscode.commands.registerCommand('beeuni.showSessionTools', () => this.showSessionTools()),
      vscode.commands.registerCommand('beeuni.restartServer', () => this.restart()),
      vscode.commands.registerCommand('beeuni.showOutput', () => this.output.show(true)),
      new AgentViews((command, args) => this.runServerCommand(command, args), () => this.pickAgent()),
      vscode.workspace.registerTextDocumentContentProvider(TOOLS_SCHEME, {
        onDidChange: this.toolsViewChanged.event,
        provideTextDocumentContent: (uri) => this.toolsViews.get(uri.toString()) ?? '',
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('beeuni.server')) {
          void this.restart();
        }
      }),
    );
    // The server finds its projects itself (and registers its own file
    // watchers): a new or deleted beeuni.yaml only changes which projects
    // the commands offer, and never restarts it.
    const manifests = vscode.workspace.createFileSystemWatcher('**/beeuni.yaml', false, true, false);
    manifests.onDidCreate(() => this.refreshRoots());
    manifests.onDidDelete(() => this.refreshRoots());
    this.disposables.push(
      manifests,
      vscode.window.onDidChangeActiveTextEditor(() => this.updateContext()),
      vscode.workspace.onDidOpenTextDocument(() => this.updateContext()),
      vscode.workspace.onDidCloseTextDocument(() => this.updateContext()),
    );
    void vscode.commands.executeCommand('setContext', 'beeuni.activated', true);
  }

  /** The projects the commands may be about: the workspace's and the open manifests'. */
  private projects(): string[] {
    const open = vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'file' && d.languageId === LANGUAGE_ID).map((d) => d.uri.fsPath);
    return projectRoots([...this.roots.map((r) => path.join(r, 'beeuni.yaml')), ...open]);
  }

  /** Context keys of the palette's `when` clauses. */
  private updateContext(): void {
    void vscode.commands.executeCommand('setContext', 'beeuni.serverRunning', this.state === 'running');
    void vscode.commands.executeCommand('setContext', 'beeuni.hasProject', this.projects().length > 0);
  }

  private setState(state: ServerState): void {
    this.state = state;
    const s = statusText(state, this.client?.initializeResult?.serverInfo?.version);
    this.status.text = s.text;
    this.status.detail = s.detail;
    this.status.busy = s.busy;
    this.status.severity = s.error ? vscode.LanguageStatusSeverity.Error : vscode.LanguageStatusSeverity.Information;
    this.updateContext();
  }

  private async findRoots(): Promise<string[]> {
    const files = await vscode.workspace.findFiles('**/beeuni.yaml', '**/node_modules/**');
    return projectRoots(files.filter((f) => f.scheme === 'file').map((f) => f.fsPath));
  }

  private async refreshRoots(): Promise<void> {
    const roots = await this.findRoots();
    if (roots.join('\n') !== this.roots.join('\n')) {
      this.output.info(`projects in the workspace: ${roots.join(', ') || '(none)'}`);
      this.roots = roots;
      this.updateContext();
    }
  }

  async start(): Promise<void> {
    // Activated by a beeuni.yaml in the workspace or by one opened alone:
    // the server finds the projects of the files it is sent.
    this.roots = await this.findRoots();
    const projects = this.projects();
    const config = vscode.workspace.getConfiguration('beeuni');
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const server = resolveServerCommand({
      configuredPath: config.get<string>('server.path'),
      configuredArgs: config.get<string[]>('server.args'),
      extensionPath: this.context.extensionPath,
      platform: process.platform,
      home: os.homedir(),
      workspaceFolder: folder,
      exists: (f) => fs.existsSync(f),
    });
    this.output.info(`starting ${server.command} ${server.args.join(' ')} (${server.source}) for ${projects.join(', ') || '(no project yet)'}`);
    const serverOptions: ServerOptions = {
      command: server.command,
      args: server.args,
      transport: TransportKind.stdio,
      options: { cwd: projects[0] ?? folder ?? os.homedir() },
    };
    const isFile = (f: string) => {
      try {
        return fs.statSync(f).isFile();
      } catch {
        return false;
      }
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: documentSelector(),
      // Only the documents the server has something to say about reach it
      // (logic.ts, servedFile): not a CI workflow or a package's file.
      middleware: servedMiddleware((uri) => servedFile(uri.fsPath, isFile)) as LanguageClientOptions['middleware'],
      outputChannel: this.output,
      // Failed requests go to the output, not to one notification each (a
      // crash fails every pending request); the status item and closed() speak.
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      traceOutputChannel: this.traceOutput,
      initializationOptions: () => ({ inspectModules: vscode.workspace.getConfiguration('beeuni').get<boolean>('inspectModules', true) }),
      // Changes to beeuni.* reach the server (didChangeConfiguration), which
      // then asks for its section again with workspace/configuration. File
      // events: the server registers its own watchers (one set, not two).
      synchronize: { configurationSection: 'beeuni' },
      errorHandler: {
        // Write errors come with a crash, which closed() reports once: log them only.
        error: (_error, _message, count) => ({ action: (count ?? 0) <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown, handled: true }),
        closed: () => {
          const restart = this.crashes.crashed(Date.now());
          const message = this.crashes.message(restart);
          this.output.error(message);
          this.setState(restart ? 'starting' : 'crashed');
          if (restart) {
            void vscode.window.showWarningMessage(message);
          } else {
            void vscode.window.showErrorMessage(message, 'Show Output').then((choice) => {
              if (choice) {
                this.output.show(true);
              }
            });
          }
          return { action: restart ? CloseAction.Restart : CloseAction.DoNotRestart, handled: true };
        },
      },
    };
    const client = new LanguageClient('beeuni', 'Beeuni', serverOptions, clientOptions);
    this.client = client;
    client.onDidChangeState((e) => {
      if (e.newState === State.Running) {
        this.setState('running');
      } else if (e.newState === State.Starting) {
        this.setState('starting');
      } else if (this.state !== 'crashed') {
        this.setState('stopped');
      }
    });
    this.setState('starting');
    try {
      await client.start();
      const info = client.initializeResult?.serverInfo;
      this.output.info(`running ${info?.name ?? 'beeuni-lsp'} ${info?.version ?? ''}`);
      this.setState('running');
    } catch (err) {
      this.output.error(`could not start ${server.command}: ${String(err)}`);
      this.setState('crashed');
      void vscode.window.showErrorMessage(
        `Beeuni: could not start ${server.command}. Set "beeuni.server.path" or see "Beeuni: Show Output".`,
      );
    }
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
      try {
        await client.stop(5000);
      } catch (err) {
        this.output.warn(`stop: ${String(err)}`);
      }
      await client.dispose();
    }
    for (const d of this.clientDisposables) {
      d.dispose();
    }
    this.clientDisposables = [];
    this.setState('stopped');
  }

  async restart(): Promise<void> {
    await this.stop();
    this.crashes = new CrashTracker();
    await this.start();
  }

  /** The manifest URI of the project a command is about (asks when ambiguous). */
  private async projectUri(): Promise<string | undefined> {
    const active = vscode.window.activeTextEditor?.document.uri;
    const file = active?.scheme === 'file' ? active.fsPath : undefined;
    const roots = this.projects();
    let root = pickProject(file, roots) ?? (file !== undefined ? findRoot(file, (f) => fs.existsSync(f)) : undefined);
    if (root === undefined && roots.length > 1) {
      root = await vscode.window.showQuickPick(roots, { placeHolder: 'Which Beeuni project?' });
    }
    if (root === undefined) {
      void vscode.window.showInformationMessage('Beeuni: open a beeuni.yaml or a file of a Beeuni project first.');
      return undefined;
    }
    return vscode.Uri.file(path.join(root, 'beeuni.yaml')).toString();
  }

  private async runningClient(): Promise<LanguageClient | undefined> {
    if (this.client?.state === State.Running) {
      return this.client;
    }
    void vscode.window.showErrorMessage('Beeuni: the language server is not running. Run "Beeuni: Restart Server".');
    return undefined;
  }

  private serverCommand<T>(client: LanguageClient, command: string, args: object): Promise<T> {
    return client.sendRequest(ExecuteCommandRequest.type, { command, arguments: [args] }) as Promise<T>;
  }

  /** Sends a server command; throws when the server is not running. */
  private runServerCommand(command: string, args: object): Promise<unknown> {
    const client = this.client;
    if (client?.state !== State.Running) {
      return Promise.reject(new Error('the language server is not running: run "Beeuni: Restart Server"'));
    }
    return this.serverCommand(client, command, args);
  }

  /** Asks for an agent of the active project (the palette's "Show what this agent's model sees"). */
  private async pickAgent(): Promise<{ uri: string; name: string } | undefined> {
    const client = await this.runningClient();
    const uri = client && (await this.projectUri());
    if (!client || !uri) {
      return undefined;
    }
    const result = await this.serverCommand<SessionTools>(client, 'beeuni.sessionTools', { uri });
    const names = (result.agents ?? []).map((a) => a.name);
    if (names.length === 0) {
      void vscode.window.showInformationMessage('Beeuni: this project declares no agents.');
      return undefined;
    }
    const name = await vscode.window.showQuickPick(names, { title: "Beeuni: Show what this agent's model sees", placeHolder: 'Which agent?' });
    return name ? { uri, name } : undefined;
  }

  async ejectTool(name?: string): Promise<void> {
    const client = await this.runningClient();
    const uri = client && (await this.projectUri());
    if (!client || !uri) {
      return;
    }
    if (!name) {
      const names = (await this.serverCommand<string[] | null>(client, 'beeuni.ejectableTools', { uri })) ?? [];
      if (names.length === 0) {
        void vscode.window.showInformationMessage('Beeuni: no Beeuni tool can be ejected in this project.');
        return;
      }
      name = await vscode.window.showQuickPick(names, {
        title: 'Beeuni: Eject Tool',
        placeHolder: 'The Beeuni tool to copy into tools/<name>.ts (Beeuni no longer updates the copy)',
      });
      if (!name) {
        return;
      }
    }
    try {
      await this.serverCommand(client, 'beeuni.eject', { uri, name, force: false });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      const choice = await vscode.window.showErrorMessage(`Beeuni: ${reason}`, 'Overwrite');
      if (choice === 'Overwrite') {
        await this.serverCommand(client, 'beeuni.eject', { uri, name, force: true });
      }
    }
  }

  async showSessionTools(): Promise<void> {
    const client = await this.runningClient();
    const uri = client && (await this.projectUri());
    if (!client || !uri) {
      return;
    }
    const result = await this.serverCommand<SessionTools>(client, 'beeuni.sessionTools', { uri });
    const manifest = vscode.Uri.parse(uri);
    const view = vscode.Uri.from({
      scheme: TOOLS_SCHEME,
      path: '/Session Tools.txt',
      query: manifest.fsPath,
    });
    this.toolsViews.set(view.toString(), formatSessionTools(result));
    this.toolsViewChanged.fire(view);
    const doc = await vscode.workspace.openTextDocument(view);
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  dispose(): void {
    for (const d of this.disposables) {
      d.dispose();
    }
  }
}

let extension: Extension | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extension = new Extension(context);
  context.subscriptions.push(extension);
  await extension.start();
}

export async function deactivate(): Promise<void> {
  await extension?.stop();
}
