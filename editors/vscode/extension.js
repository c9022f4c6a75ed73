// The client side of lsfc lsp: starts the server for LSF configuration
// files and stops it with the editor.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration('lsfc');
  const server = {
    command: config.get('path', 'lsfc'),
    args: ['lsp', ...config.get('args', [])],
  };
  client = new LanguageClient('lsfc', 'lsfc', { run: server, debug: server }, {
    documentSelector: [{ language: 'lsf' }],
    synchronize: {
      // Files of the tree changed outside the editor are checked again.
      fileEvents: vscode.workspace.createFileSystemWatcher('**/{lsf.conf,lsf.shared,lsf.cluster.*,lsb.*,.lsfc.yaml}'),
    },
  });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
