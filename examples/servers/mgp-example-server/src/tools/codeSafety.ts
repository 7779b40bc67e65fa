/**
 * The code safety declaration of run_code (MGP §7.3) and the server's own check against it, which
 * answers in the rejection format of MGP §7.4. The kernel checks first (MGP §4.5); this is the
 * second line, and the one a plain MCP client gets.
 */
import type { CodeSafetySpec } from '../tooling';

export const RUN_CODE_SAFETY: CodeSafetySpec = {
  level: 'standard',
  language: 'javascript',
  max_code_size_bytes: 10_000,
  blocked_imports: [
    'child_process',
    'fs',
    'fs/promises',
    'net',
    'http',
    'https',
    'dgram',
    'dns',
    'os',
    'vm',
    'worker_threads',
    'cluster',
    'process',
    'inspector',
  ],
  blocked_patterns: [
    'eval(',
    'Function(',
    'process.',
    'import(',
    'constructor.constructor',
    '__proto__',
  ],
  // The sandbox has no `require` and no `import`: no module can be loaded at all, so none is allowed.
  allowed_imports: [],
};

export interface CodeRejection {
  status: 'rejected';
  reason: string;
  violations: string[];
  hints: { blocked_imports: string[]; allowed_imports: string[]; max_code_size_bytes: number };
}

/** Module names the code imports or requires, `node:` prefix removed. */
export function importedModules(code: string): string[] {
  const patterns = [
    /\brequire\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g,
    /\bimport\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g,
    /\bimport\s+(?:[\w*{}\s,]+\s+from\s+)?['"`]([^'"`]+)['"`]/g,
    /\bexport\s+[\w*{}\s,]+\s+from\s+['"`]([^'"`]+)['"`]/g,
  ];
  const found = patterns.flatMap((pattern) =>
    [...code.matchAll(pattern)].map((match) => match[1].replace(/^node:/, '')),
  );
  return [...new Set(found)];
}

export function checkCode(
  code: string,
  spec: CodeSafetySpec = RUN_CODE_SAFETY,
): CodeRejection | undefined {
  const violations: string[] = [];
  const size = Buffer.byteLength(code, 'utf8');
  if (size > spec.max_code_size_bytes)
    violations.push(`Code size ${size} bytes exceeds ${spec.max_code_size_bytes}`);
  for (const name of importedModules(code)) {
    if (spec.blocked_imports.includes(name) || spec.blocked_imports.includes(name.split('/')[0]))
      violations.push(`Blocked import: '${name}'`);
  }
  for (const pattern of spec.blocked_patterns) {
    if (code.includes(pattern)) violations.push(`Blocked pattern: '${pattern}'`);
  }
  if (violations.length === 0) return undefined;
  return {
    status: 'rejected',
    reason: 'Code validation failed',
    violations,
    hints: {
      blocked_imports: spec.blocked_imports,
      allowed_imports: spec.allowed_imports,
      max_code_size_bytes: spec.max_code_size_bytes,
    },
  };
}
