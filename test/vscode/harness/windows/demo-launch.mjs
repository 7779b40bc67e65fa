// Issue: `npm start` launched code-server with the test suites' smoke-test driver, so the demo showed
// no notification toast and never asked whether to trust the workspace. Started as the demo starts
// it, VS Code asks "Do you trust the authors…?" at first open and shows the kernel's notifications as
// toasts (here ▶ Start in Restricted Mode, whose answer offers "Trust Workspace…").
import { openWorkbench, serverRow } from '../uiKit.mjs';

export const title = '`npm start` shows the trust question and notifications as VS Code does';
export const window = { demo: true };

export async function run(kit) {
  const { page, server, workspace, step, shot } = kit;

  await step('the workspace opens with "Do you trust the authors…?"', async () => {
    await openWorkbench(page, server, workspace);
    const question = page.locator('.monaco-dialog-box', {
      hasText: 'Do you trust the authors of the files in this folder?',
    });
    await question.waitFor();
    await shot('demo-trust-question');
    await question.locator('.monaco-button', { hasText: "No, I don't trust the authors" }).click();
    await question.waitFor({ state: 'hidden' });
  });

  await step(
    '▶ Start in Restricted Mode answers with a toast offering "Trust Workspace…"',
    async () => {
      const row = await serverRow(page, 'example', 'registered');
      await row.hover();
      await row.locator('.action-label[aria-label="Start Server"]').click();
      const toast = page.locator('.notifications-toasts .notification-toast', {
        hasText: '"example" may not start: the workspace is not trusted',
      });
      await toast.waitFor();
      await toast.locator('.monaco-button', { hasText: 'Trust Workspace…' }).waitFor();
      // The toast slides and fades in: the screenshot waits until it is fully shown.
      await toast.evaluate(
        (node) =>
          new Promise((resolve) => {
            const settled = () =>
              getComputedStyle(node).opacity === '1' ? resolve() : requestAnimationFrame(settled);
            settled();
          }),
      );
      await page.mouse.move(700, 300);
      await shot('demo-notification-toast');
    },
  );
}
