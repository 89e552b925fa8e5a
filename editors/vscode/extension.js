// A thin client: starts `skb lsp` on stdio for the files of a skill
// (`SKILL.md`, `agents/openai.yaml`, `.claude-plugin/*.json`); everything
// else is the server's. `Agent Skills: Preview` shows what `skb.preview`
// returns for the active `SKILL.md`.
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("skb");
  const serverOptions = {
    command: config.get("path", "skb"),
    args: ["lsp"],
    transport: TransportKind.stdio,
  };
  const clientOptions = {
    documentSelector: [
      { scheme: "file", pattern: "**/SKILL.md" },
      { scheme: "file", pattern: "**/skill.md" },
      { scheme: "file", pattern: "**/agents/openai.yaml" },
      { scheme: "file", pattern: "**/.claude-plugin/{plugin,marketplace}.json" },
    ],
    initializationOptions: {
      profile: config.get("profile", "spec"),
      scan: config.get("scan", true),
    },
  };
  client = new LanguageClient("skb", "Agent Skills (skb lsp)", serverOptions, clientOptions);
  context.subscriptions.push(
    vscode.commands.registerCommand("skb.showPreview", async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor) return;
      const preview = await client.sendRequest("workspace/executeCommand", {
        command: "skb.preview",
        arguments: [editor.document.uri.toString()],
      });
      const doc = await vscode.workspace.openTextDocument({
        language: "json",
        content: JSON.stringify(preview, null, 2),
      });
      await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
    })
  );
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
