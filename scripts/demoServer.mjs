// The demo's code-server: VS Code as a person gets it. Unlike the test suites' launch, no smoke-test
// driver (which hides every notification toast and refuses dialogs) and Workspace Trust on, so the
// workbench asks "Do you trust the authors…?" at first open. `npm start` and the harness's demo
// window (test/vscode/harness/windows/demo-launch.mjs) both start it here.
import { startCodeServer } from '../test/vscode/harness/codeServer.mjs';

/**
 * The demo profile's settings over the harness's quiet ones. Chat stays on (the @mgp participant and
 * the kernel's tools show there). code-server never asks about trust at startup by default ("never");
 * desktop VS Code asks once per folder, and so does the demo.
 */
export const DEMO_SETTINGS = {
  'chat.disableAIFeatures': false,
  'security.workspace.trust.startupPrompt': 'once',
};

/** @param {{dirs: object, workspace: string, port?: number, env?: Record<string,string>}} options */
export function startDemoServer({ dirs, workspace, port, env }) {
  return startCodeServer({ dirs, workspace, port, env, trust: false, smokeTestDriver: false });
}
