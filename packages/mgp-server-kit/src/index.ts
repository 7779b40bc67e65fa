/**
 * mgp-server-kit: MGP for servers built on the official MCP TypeScript SDK (MGP §17.7).
 *
 *   const server = new McpServer({ name: 'notes', version: '1.0.0' });
 *   const mgp = enableMgp(server, { permissions: ['memory.write'], trustLevel: 'standard' });
 *   mgp.secure('add_note', { risk_level: 'moderate', permissions_required: ['memory.write'] });
 */
export { enableMgp, Mgp, type MgpOptions } from './enableMgp';
export { categoryOf, ErrorCodes, mgpError, type Category, type Recovery } from './errors';
export { Permissions, type PermissionState } from './permissions';
export { ToolStream } from './streaming';
export * from './types';
