// The logic of "Beeuni: Show what this agent's model sees", without the
// vscode module (tested with node --test): the read-only document's URI,
// the command's arguments and the document's text.

/** The scheme of the read-only documents of agents' views. */
export const AGENT_SCHEME = 'beeuni-agent';

/** An agent of a project: the project's manifest URI and the agent's name. */
export interface AgentTarget {
  uri: string;
  name: string;
}

/**
 * The parts of the read-only document's URI for an agent: the path names
 * the agent (the editor's tab title), the query holds the manifest and the
 * agent, so that the document can be made again after any edit.
 */
export function agentViewUriParts(t: AgentTarget): { scheme: string; path: string; query: string } {
  return {
    scheme: AGENT_SCHEME,
    path: `/What ${t.name}'s model sees.txt`,
    query: new URLSearchParams({ uri: t.uri, agent: t.name }).toString(),
  };
}

/** The agent a document's query names (agentViewUriParts), or undefined. */
export function parseAgentViewQuery(query: string): AgentTarget | undefined {
  const q = new URLSearchParams(query);
  const uri = q.get('uri');
  const name = q.get('agent');
  return uri && name ? { uri, name } : undefined;
}

/**
 * The agent of the command's argument: the code lens passes
 * { uri, name }; from the palette there is none (undefined).
 */
export function agentTarget(arg: unknown): AgentTarget | undefined {
  if (!arg || typeof arg !== 'object') {
    return undefined;
  }
  const { uri, name } = arg as { uri?: unknown; name?: unknown };
  return typeof uri === 'string' && typeof name === 'string' && uri !== '' && name !== '' ? { uri, name } : undefined;
}

/**
 * The document's text: the server's answer to beeuni.agentTools (its
 * `text`), or, when it failed (an agent renamed away, the server
 * stopped), why there is no view.
 */
export function agentViewText(t: AgentTarget, result: unknown, error?: unknown): string {
  if (error !== undefined) {
    const reason = error instanceof Error ? error.message : String(error);
    return `No view of agent ${t.name}: ${reason}\n`;
  }
  const text = result && typeof result === 'object' ? (result as { text?: unknown }).text : undefined;
  return typeof text === 'string' ? text : `No view of agent ${t.name}: the server gave none.\n`;
}

/**
 * Whether a change to the file at changedUri may change the view of an
 * agent of the project whose manifest is manifestUri: a change to any
 * file under the project's folder (the manifest, an import, a module).
 */
export function changes(changedUri: string, manifestUri: string): boolean {
  const folder = manifestUri.slice(0, manifestUri.lastIndexOf('/') + 1);
  return folder !== '' && changedUri.startsWith(folder);
}
