// The stand-in for Red Hat's YAML extension in the e2e test (e2e.test.mjs
// packages and installs it beside the Beeuni .vsix). As Red Hat's
// extension does (redhat-developer/vscode-yaml, src/extension.ts), it runs
// yaml-language-server through vscode-languageclient on every document its
// document selector matches, and yaml-language-server reads the `yaml.*`
// settings (yaml.schemas among them) from the client. What it leaves out:
// the schema store, the custom schema and content requests, telemetry.
// The test bundles it with esbuild, vscode-languageclient coming from the
// Beeuni extension's node_modules (editors/vscode/node_modules).
const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

exports.activate = async function activate() {
  const server = vscode.workspace.getConfiguration('yamlStandIn').get('server');
  if (!server) throw new Error('yamlStandIn.server: no yaml-language-server module set');
  const run = { module: server, transport: TransportKind.ipc };
  client = new LanguageClient('yamlStandIn', 'YAML stand-in', { run, debug: run }, {
    // Red Hat's document selector, as it is.
    documentSelector: [
      { language: 'yaml' },
      { language: 'dockercompose' },
      { language: 'github-actions-workflow' },
      { pattern: '*.y(a)ml' },
    ],
    synchronize: { configurationSection: ['yaml', 'http', '[yaml]', 'editor'] },
  });
  await client.start();
};

exports.deactivate = function deactivate() {
  return client?.stop();
};
