// VS Code's own MCP support lists MGP Kernel: the extension's MCP server definition provider
// (vscode.lm.registerMcpServerDefinitionProvider) offers `mgp serve` on the open folder, which
// attaches to this window's kernel. "MCP: List Servers" shows it; started from there, VS Code's MCP
// client gets the gateway's tools (its output channel says how many it discovered). Screenshots.
import { HANG_MS, shownWithin } from '../patience.mjs';
import { approvePermissions, openWorkbench, serverRow, startWorkspaceServers } from '../uiKit.mjs';

export const title = "VS Code's MCP server list";
export const window = { settings: { 'chat.disableAIFeatures': false } };

const quickRow = (page, text) =>
  page.locator('.quick-input-widget .monaco-list-row', { hasText: text }).first();

export async function run(kit) {
  const { page, server, workspace, step, shot, runFromPalette } = kit;

  await step('the example workspace runs its servers', async () => {
    await openWorkbench(page, server, workspace);
    await startWorkspaceServers(page, ['example', 'everything', 'live']);
    await approvePermissions(page, 'example');
    await serverRow(page, 'example', 'connected');
  });

  await step('"MCP: List Servers" lists MGP Kernel from the extension\'s provider', async () => {
    await runFromPalette('MCP: List Servers');
    await quickRow(page, 'MGP Kernel').waitFor();
    await shot('mcp-list-servers');
  });

  await step("started from the list, VS Code's MCP client gets the gateway's tools", async () => {
    await quickRow(page, 'MGP Kernel').click();
    await quickRow(page, 'Start Server').click();
    // The server's output can come up as it starts and take the focus, closing a list opened at
    // that moment: the list is opened again until it shows the server running.
    const running = quickRow(page, /MGP Kernel\s*Running/);
    for (const until = Date.now() + HANG_MS; ;) {
      if (!(await page.locator('.quick-input-widget').isVisible()))
        await runFromPalette('MCP: List Servers');
      if (await shownWithin(running, 2000)) break;
      if (Date.now() > until) throw new Error('MCP: List Servers never showed MGP Kernel running');
    }
    await quickRow(page, 'MGP Kernel').click();
    await quickRow(page, 'Show Output').click();
    // VS Code's MCP client logs to the server's own output channel: the five meta-tools of the
    // default listing (MGP §16.3 L2). Monaco draws spaces as no-break spaces: \s matches both.
    const output = page.locator('.part.panel .view-lines');
    await output.filter({ hasText: /Discovered\s5\stools/ }).waitFor();
    await output.filter({ hasText: /attached\sto\sthe\seditor's\skernel/ }).waitFor();
    await shot('mcp-server-tools');
  });
}
