// "Beeuni: Show what this agent's model sees": a read-only document per
// agent (scheme beeuni-agent) with what the server's beeuni.agentTools
// answers, made again whenever a file of its project changes or the
// server publishes new diagnostics for it.
import * as vscode from 'vscode';
import { AGENT_SCHEME, type AgentTarget, agentTarget, agentViewText, agentViewUriParts, changes, parseAgentViewQuery } from './agentview';

/** How long the views wait after the last change before asking again. */
const REFRESH_DELAY_MS = 250;

export class AgentViews implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private readonly pending = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly disposables: vscode.Disposable[];

  /**
   * run sends a server command (it throws when the server is not running);
   * pick asks the user for an agent when the command has no argument.
   */
  constructor(
    private readonly run: (command: string, args: object) => Promise<unknown>,
    private readonly pick: () => Promise<AgentTarget | undefined>,
  ) {
    this.disposables = [
      this.changed,
      vscode.workspace.registerTextDocumentContentProvider(AGENT_SCHEME, {
        onDidChange: this.changed.event,
        provideTextDocumentContent: (uri) => this.content(uri),
      }),
      vscode.commands.registerCommand('beeuni.showAgentTools', (arg?: unknown) => this.show(arg)),
      vscode.workspace.onDidChangeTextDocument((e) => this.followed([e.document.uri])),
      vscode.languages.onDidChangeDiagnostics((e) => this.followed(e.uris)),
    ];
  }

  private async content(uri: vscode.Uri): Promise<string> {
    const t = parseAgentViewQuery(uri.query);
    if (!t) {
      return '';
    }
    try {
      return agentViewText(t, await this.run('beeuni.agentTools', t));
    } catch (err) {
      return agentViewText(t, undefined, err);
    }
  }

  async show(arg?: unknown): Promise<void> {
    const t = agentTarget(arg) ?? (await this.pick());
    if (!t) {
      return;
    }
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.from(agentViewUriParts(t)));
    await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside, preserveFocus: true });
  }

  /** Schedules the refresh of the open views the changed files may change. */
  private followed(uris: readonly vscode.Uri[]): void {
    const files = uris.filter((u) => u.scheme === 'file').map((u) => u.toString());
    if (files.length === 0) {
      return;
    }
    for (const doc of vscode.workspace.textDocuments) {
      const t = doc.uri.scheme === AGENT_SCHEME ? parseAgentViewQuery(doc.uri.query) : undefined;
      if (t && files.some((f) => changes(f, t.uri))) {
        this.pending.add(doc.uri.toString());
      }
    }
    if (this.pending.size > 0 && this.timer === undefined) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        for (const u of this.pending) {
          this.changed.fire(vscode.Uri.parse(u));
        }
        this.pending.clear();
      }, REFRESH_DELAY_MS);
    }
  }

  dispose(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
    }
    for (const d of this.disposables) {
      d.dispose();
    }
  }
}
