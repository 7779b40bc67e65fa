/**
 * The first program inside a sandbox whose network is its own: it listens on the sandbox's loopback
 * for each allowed port (and for the proxy), passes each connection on to the kernel's Unix socket
 * for it (hostBridges.ts), then runs the server with the same stdio and exits as the server does.
 *
 *     sandboxBridge.js --folder DIR [--port N]… [--proxy] [--drop-env NAME]… -- COMMAND ARG…
 */
import { spawn } from 'node:child_process';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { portSocket, PROXY_SOCKET } from './bridgeNames';

interface BridgeArgs {
  folder: string;
  ports: number[];
  proxy: boolean;
  dropEnv: string[];
  command: string[];
}

function parse(argv: string[]): BridgeArgs {
  const parsed: BridgeArgs = { folder: '', ports: [], proxy: false, dropEnv: [], command: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      parsed.command = argv.slice(i + 1);
      break;
    }
    if (arg === '--folder') parsed.folder = argv[++i];
    else if (arg === '--port') parsed.ports.push(Number(argv[++i]));
    else if (arg === '--proxy') parsed.proxy = true;
    else if (arg === '--drop-env') parsed.dropEnv.push(argv[++i]);
    else throw new Error(`sandbox bridge: unknown argument ${arg}`);
  }
  if (!parsed.folder || !parsed.command.length) throw new Error('sandbox bridge: nothing to run');
  return parsed;
}

function forwardTo(socketPath: string): Server {
  return createServer((inside) => {
    const outside = connect(socketPath);
    inside.pipe(outside);
    outside.pipe(inside);
    const end = () => {
      inside.destroy();
      outside.destroy();
    };
    inside.once('error', end);
    outside.once('error', end);
  });
}

function listenOn(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

async function main(): Promise<void> {
  const args = parse(process.argv.slice(2));
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of args.dropEnv) delete env[name];
  for (const port of args.ports)
    await listenOn(forwardTo(join(args.folder, portSocket(port))), port);
  if (args.proxy) {
    const port = await listenOn(forwardTo(join(args.folder, PROXY_SOCKET)), 0);
    const proxy = `http://127.0.0.1:${port}`;
    Object.assign(env, {
      HTTP_PROXY: proxy,
      HTTPS_PROXY: proxy,
      http_proxy: proxy,
      https_proxy: proxy,
      NO_PROXY: 'localhost,127.0.0.1,::1',
      no_proxy: 'localhost,127.0.0.1,::1',
      // Node 24 and later send fetch() through these variables only when asked to.
      NODE_USE_ENV_PROXY: '1',
    });
  }
  const [command, ...rest] = args.command;
  const child = spawn(command, rest, { stdio: 'inherit', env });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const)
    process.on(signal, () => child.kill(signal));
  child.once('error', (error) => {
    process.stderr.write(`${command}: ${error.message}\n`);
    process.exit(127);
  });
  child.once('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(126);
});
