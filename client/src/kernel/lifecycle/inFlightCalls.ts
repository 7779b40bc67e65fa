import type {
  CallOptions,
  CappedResult,
  ListedTool,
  ServerConnection,
} from '../connection/serverConnection';
import type { SessionEnvironment, ToolCallExtension } from '../connection/service';

/**
 * The tools/call requests forwarded to one server: what the services add to each (MCPL scope and
 * state), and how many are still open, so that a drain (MGP §11.4) can wait for them.
 */
export class InFlightCalls {
  private open = 0;
  private drained: (() => void) | undefined;

  constructor(
    private readonly serverId: string,
    private readonly session: SessionEnvironment,
  ) {}

  get count(): number {
    return this.open;
  }

  call(
    connection: ServerConnection,
    tool: ListedTool | string,
    args: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<CappedResult> {
    let extended: ReturnType<InFlightCalls['extensionsOf']>;
    try {
      extended = this.extensionsOf(tool, args);
    } catch (error) {
      return Promise.reject(error);
    }
    if (!extended) return this.forward(connection, tool, args, options, undefined);
    return extended.then((extensions) =>
      this.forward(
        connection,
        tool,
        args,
        {
          ...options,
          params: Object.assign({}, options?.params, ...extensions.map((e) => e.params ?? {})),
        },
        extensions,
      ),
    );
  }

  /** Resolves when no call is open any more, or after `timeoutMs`. */
  async drain(timeoutMs: number): Promise<void> {
    if (this.open === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.drained = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private forward(
    connection: ServerConnection,
    tool: ListedTool | string,
    args: Record<string, unknown>,
    options: CallOptions | undefined,
    extensions: ToolCallExtension[] | undefined,
  ): Promise<CappedResult> {
    this.open++;
    // then(), not finally(): finally() takes two more turns of the microtask queue per call.
    return connection.callTool(tool, args, options).then(
      (result) => {
        this.ended();
        if (!extensions) return result;
        return Promise.all(extensions.map((extension) => extension.done?.(result))).then(
          () => result,
        );
      },
      (error: unknown) => {
        this.ended();
        throw error;
      },
    );
  }

  /** What the services add to a tools/call; undefined when none does. */
  private extensionsOf(
    tool: ListedTool | string,
    args: Record<string, unknown>,
  ): Promise<ToolCallExtension[]> | undefined {
    let found: (ToolCallExtension | Promise<ToolCallExtension | undefined>)[] | undefined;
    for (const service of this.session.services) {
      const extension = service.toolCall?.(this.serverId, tool, args);
      if (extension) (found ??= []).push(extension);
    }
    return found
      ? Promise.all(found).then((all) => all.filter((e): e is ToolCallExtension => e !== undefined))
      : undefined;
  }

  private ended(): void {
    this.open--;
    if (this.open === 0) this.drained?.();
  }
}
