// VS Code's own MCP support lists MGP Kernel: the extension's MCP server definition provider
// (vscode.lm.registerMcpServerDefinitionProvider) offers `mgp serve` on the open folder, which
// attaches to this window's kernel. "MCP: List Servers" shows it; screenshot.
import { approvePermissions, openWorkbench, serverRow, startWorkspaceServers } from '../uiKit.mjs';

export const title = "VS Code's MCP server list";
export const window = { settings: { 'chat.disableAIFeatures': false } };

export async function run(kit) {
  const { page, server, workspace, step, shot, runFromPalette } = kit;

  await step('the example workspace runs its servers', async () => {
    await openWorkbench(page, server, workspace);
    await startWorkspaceServers(page, ['example', 'everything']);
    await approvePermissions(page, 'example');
    await serverRow(page, 'example', 'connected');
  });

  await step('"MCP: List Servers" lists MGP Kernel from the extension\'s provider', async () => {
    await runFromPalette('MCP: List Servers');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'MGP Kernel' }).waitFor();
    await shot('mcp-list-servers');
    await page.keyboard.press('Escape');
  });
}
