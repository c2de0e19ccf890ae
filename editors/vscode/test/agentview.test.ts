import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AGENT_SCHEME, agentTarget, agentViewText, agentViewUriParts, changes, parseAgentViewQuery } from '../src/agentview';

describe('agent view URI', () => {
  it('round-trips the manifest and the agent, whatever they hold', () => {
    for (const t of [
      { uri: 'file:///ws/beeuni.yaml', name: 'support' },
      { uri: 'file:///w%20s/a&b/beeuni.yaml', name: 'a=b?c#d' },
    ]) {
      const parts = agentViewUriParts(t);
      assert.equal(parts.scheme, AGENT_SCHEME);
      assert.equal(parts.path, `/What ${t.name}'s model sees.txt`);
      assert.deepEqual(parseAgentViewQuery(parts.query), t);
    }
  });
  it('rejects a query without both', () => {
    assert.equal(parseAgentViewQuery(''), undefined);
    assert.equal(parseAgentViewQuery('uri=file%3A%2F%2F%2Fws%2Fbeeuni.yaml'), undefined);
  });
});

describe('agentTarget', () => {
  const cases: { name: string; arg: unknown; want: unknown }[] = [
    { name: 'the code lens argument', arg: { uri: 'file:///ws/beeuni.yaml', name: 'support' }, want: { uri: 'file:///ws/beeuni.yaml', name: 'support' } },
    { name: 'the palette: none', arg: undefined, want: undefined },
    { name: 'a name missing', arg: { uri: 'file:///ws/beeuni.yaml' }, want: undefined },
    { name: 'not strings', arg: { uri: 1, name: 2 }, want: undefined },
    { name: 'empty', arg: { uri: '', name: 'x' }, want: undefined },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(agentTarget(c.arg), c.want));
  }
});

describe('agentViewText', () => {
  const t = { uri: 'file:///ws/beeuni.yaml', name: 'support' };
  it("is the server's text", () => {
    assert.equal(agentViewText(t, { text: "What agent support's model sees: 0 tools\n", view: {} }), "What agent support's model sees: 0 tools\n");
  });
  it('says why there is none', () => {
    assert.equal(agentViewText(t, undefined, new Error('no agent "support": the agents are quiet')), 'No view of agent support: no agent "support": the agents are quiet\n');
    assert.equal(agentViewText(t, null), 'No view of agent support: the server gave none.\n');
  });
});

describe('changes', () => {
  it('any file of the project changes its views', () => {
    assert.equal(changes('file:///ws/beeuni.yaml', 'file:///ws/beeuni.yaml'), true);
    assert.equal(changes('file:///ws/tools/a.ts', 'file:///ws/beeuni.yaml'), true);
    assert.equal(changes('file:///other/beeuni.yaml', 'file:///ws/beeuni.yaml'), false);
    assert.equal(changes('file:///wsx/beeuni.yaml', 'file:///ws/beeuni.yaml'), false);
  });
});
