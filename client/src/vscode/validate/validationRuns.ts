/**
 * The validations of the window's servers (*MGP: Validate Server*): one run at a time per server, its
 * checks as they end, and the last finished report per server, kept in the workspace's storage so the
 * tier badge on a server's page survives a reload.
 */
import * as vscode from 'vscode';
import type { ValidationView } from '@shared/validationMessages';
import {
  ALL_SERVER_CHECKS,
  type CheckResult,
  type Kernel,
  validateHostedServer,
  type ValidationReport,
} from '../../kernel';
import { checkView, resultView } from './validationViews';

const KEPT_KEY = 'mgp.validationReports';
/** Reports kept, the most recent servers' first. */
const KEPT = 50;

interface Run {
  checks: CheckResult[];
  allowDangerous: boolean;
  done: Promise<void>;
}

export class ValidationRuns {
  private static readonly byKernel = new WeakMap<Kernel, ValidationRuns>();
  private readonly running = new Map<string, Run>();
  /** Why the last run could not start or stopped early, until the next one ends. */
  private readonly errors = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<string>();
  readonly onDidChange = this.changed.event;

  private constructor(
    private readonly kernel: Kernel,
    private readonly storage: vscode.Memento,
  ) {}

  /** The window's one record of validations: the report pages and the server pages share it. */
  static of(kernel: Kernel, storage: vscode.Memento): ValidationRuns {
    let runs = ValidationRuns.byKernel.get(kernel);
    if (!runs) {
      runs = new ValidationRuns(kernel, storage);
      ValidationRuns.byKernel.set(kernel, runs);
    }
    return runs;
  }

  private kept(): Record<string, ValidationReport> {
    return this.storage.get<Record<string, ValidationReport>>(KEPT_KEY) ?? {};
  }

  last(serverId: string): ValidationReport | undefined {
    return this.kept()[serverId];
  }

  isRunning(serverId: string): boolean {
    return this.running.has(serverId);
  }

  /** Starts a run unless one is under way; resolves when it ends. */
  start(serverId: string, allowDangerous: boolean): Promise<void> {
    const under = this.running.get(serverId);
    if (under) return under.done;
    const run: Run = { checks: [], allowDangerous, done: Promise.resolve() };
    this.running.set(serverId, run);
    run.done = this.execute(serverId, run);
    this.changed.fire(serverId);
    return run.done;
  }

  private async execute(serverId: string, run: Run): Promise<void> {
    try {
      const report = await validateHostedServer(this.kernel, serverId, {
        allowDangerous: run.allowDangerous,
        onResult: (result) => {
          run.checks.push(result);
          this.changed.fire(serverId);
        },
      });
      this.errors.delete(serverId);
      await this.keep(serverId, report);
    } catch (error) {
      this.errors.set(serverId, error instanceof Error ? error.message : String(error));
    } finally {
      this.running.delete(serverId);
      this.changed.fire(serverId);
    }
  }

  private async keep(serverId: string, report: ValidationReport): Promise<void> {
    const rest = Object.entries(this.kept()).filter(([id]) => id !== serverId);
    const kept = Object.fromEntries([[serverId, report], ...rest].slice(0, KEPT));
    await this.storage.update(KEPT_KEY, kept);
  }

  view(serverId: string): ValidationView {
    const run = this.running.get(serverId);
    const last = this.last(serverId);
    const checks = run ? run.checks : (last?.checks ?? []);
    return {
      serverId,
      running: run !== undefined,
      allowDangerous: run?.allowDangerous ?? false,
      total: ALL_SERVER_CHECKS.length,
      checks: checks.map(checkView),
      result: !run && last ? resultView(last) : undefined,
      error: run ? undefined : this.errors.get(serverId),
    };
  }
}
