import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ErrorObject } from 'ajv';
import { parse } from 'smol-toml';
import { createConfigValidator } from '@shared/schemas/ajv';
import { mgpConfigSchema, openfangConfigSchema, schemaForFormat } from '@shared/schemas';
import type { JsonSchema } from '@shared/schemas/schemaTypes';
import * as vocabulary from '@shared/schemas/vocabulary';
import type { VocabularyEntry } from '@shared/schemas/vocabulary';
import { repoRoot } from '../repoRoot';
import { walk } from './support/schemaNodes';

const fixtures = join(repoRoot(), 'test/fixtures/config');
const SCHEMAS = { mgp: mgpConfigSchema, openfang: openfangConfigSchema } as const;
type Format = keyof typeof SCHEMAS;

function formatOf(file: string): Format {
  return file.includes('openfang') ? 'openfang' : 'mgp';
}

function errorsFor(file: string): ErrorObject[] {
  const validate = createConfigValidator(SCHEMAS[formatOf(file)]);
  const value = parse(readFileSync(join(fixtures, file), 'utf8'));
  return validate(value) ? [] : [...(validate.errors ?? [])];
}

/** The key paths (named as `walk` names them) that a parsed document uses. */
function usedKeys(
  value: unknown,
  schema: JsonSchema,
  keys = '',
  into = new Set<string>(),
): Set<string> {
  if (Array.isArray(value)) {
    if (schema.items) for (const item of value) usedKeys(item, schema.items, `${keys}[]`, into);
  } else if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    for (const [key, sub] of Object.entries(value)) {
      const direct = schema.properties?.[key];
      const pattern = Object.entries(schema.patternProperties ?? {}).find(([p]) =>
        new RegExp(p, 'u').test(key),
      )?.[1];
      const child =
        direct ??
        pattern ??
        (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
      const path = direct ? (keys ? `${keys}.${key}` : key) : `${keys}.*`;
      into.add(path);
      if (child) usedKeys(sub, child, path, into);
    }
  }
  return into;
}

interface Expected {
  instancePath: string;
  keyword: string;
  params?: Record<string, unknown>;
}

const EXPECTED_ERRORS: Record<string, Expected[]> = {
  'invalid-transport.toml': [
    {
      instancePath: '/servers/0/transport',
      keyword: 'enum',
      params: { allowedValues: ['stdio', 'http', 'sse'] },
    },
  ],
  'invalid-misspelled-key.toml': [
    {
      instancePath: '/servers/0',
      keyword: 'additionalProperties',
      params: { additionalProperty: 'comand' },
    },
  ],
  'invalid-wrong-type.toml': [
    { instancePath: '/servers/0/args', keyword: 'type', params: { type: 'array' } },
    { instancePath: '/servers/0/mgp/max_restarts', keyword: 'type', params: { type: 'integer' } },
  ],
  'invalid-missing-id.toml': [
    { instancePath: '/servers/1', keyword: 'required', params: { missingProperty: 'id' } },
  ],
  'invalid-extension.toml': [{ instancePath: '/servers/0/mgp/extensions/1', keyword: 'enum' }],
  'invalid-restart-policy.toml': [
    {
      instancePath: '/servers/0/mgp/restart_policy',
      keyword: 'enum',
      params: { allowedValues: ['never', 'on_failure', 'always'] },
    },
    {
      instancePath: '/servers/0/mgp/backoff_max_ms',
      keyword: 'minimum',
      params: { comparison: '>=', limit: 0 },
    },
  ],
  'invalid-kernel.toml': [
    { instancePath: '/kernel/approval_policy', keyword: 'enum' },
    {
      instancePath: '/kernel/tool_context_budget/max_tokens',
      keyword: 'type',
      params: { type: 'integer' },
    },
  ],
  'invalid-access-grant.toml': [
    {
      instancePath: '/kernel/access_grants/0',
      keyword: 'required',
      params: { missingProperty: 'server_id' },
    },
    {
      instancePath: '/kernel/access_grants/0/expires_at',
      keyword: 'format',
      params: { format: 'date-time' },
    },
  ],
  'invalid-id-pattern.toml': [{ instancePath: '/servers/0/id', keyword: 'pattern' }],
  'invalid-url.toml': [
    { instancePath: '/servers/0/url', keyword: 'format', params: { format: 'uri' } },
    {
      instancePath: '/servers/0/request_timeout_secs',
      keyword: 'exclusiveMinimum',
      params: { comparison: '>', limit: 0 },
    },
  ],
  'invalid-tool-override.toml': [
    { instancePath: '/servers/0/tools/run/risk_level', keyword: 'enum' },
    { instancePath: '/servers/0/tools/run/side_effects/1', keyword: 'enum' },
  ],
  'invalid-mcpl.toml': [
    { instancePath: '/servers/0/mcpl/enabled', keyword: 'type', params: { type: 'boolean' } },
    {
      instancePath: '/servers/0/mcpl/scopes/files.edit',
      keyword: 'additionalProperties',
      params: { additionalProperty: 'allowlist' },
    },
  ],
  'invalid-top-level.toml': [
    { instancePath: '', keyword: 'additionalProperties', params: { additionalProperty: 'server' } },
  ],
  'invalid-openfang-transport.toml': [
    {
      instancePath: '/mcp_servers/0/transport/type',
      keyword: 'enum',
      params: { allowedValues: ['stdio', 'sse', 'http'] },
    },
  ],
  'invalid-openfang-server.toml': [
    { instancePath: '/mcp_servers/0', keyword: 'required', params: { missingProperty: 'name' } },
    { instancePath: '/mcp_servers/0/env/0', keyword: 'pattern' },
  ],
  'invalid-openfang-a2a.toml': [
    {
      instancePath: '/a2a',
      keyword: 'additionalProperties',
      params: { additionalProperty: 'enable' },
    },
    {
      instancePath: '/a2a/external_agents/0',
      keyword: 'required',
      params: { missingProperty: 'url' },
    },
  ],
  'invalid-openfang-no-transport.toml': [
    {
      instancePath: '/mcp_servers/0',
      keyword: 'required',
      params: { missingProperty: 'transport' },
    },
    { instancePath: '/mcp_servers/0/timeout_secs', keyword: 'type', params: { type: 'integer' } },
  ],
};

const byPath = (
  a: { instancePath: string; keyword: string },
  b: { instancePath: string; keyword: string },
) => `${a.instancePath} ${a.keyword}`.localeCompare(`${b.instancePath} ${b.keyword}`);

describe('config schemas', () => {
  describe('compilation', () => {
    for (const format of ['mgp', 'openfang'] as const) {
      it(`compiles the ${format} schema with ajv in strict mode`, () => {
        // No try/catch: a strict-mode complaint (unknown keyword, missing type…) throws and fails the test.
        const validate = createConfigValidator(schemaForFormat(format));
        assert.equal(typeof validate, 'function');
        assert.equal(validate.schema, SCHEMAS[format]);
      });
    }

    it('is strict: an unknown keyword is refused, VS Code keywords are not', () => {
      assert.throws(
        () => createConfigValidator({ type: 'object', descripton: 'typo' } as JsonSchema),
        /strict mode: unknown keyword: "descripton"/,
      );
      assert.doesNotThrow(() =>
        createConfigValidator({
          type: 'string',
          markdownDescription: 'x',
          enumDescriptions: [],
          deprecationMessage: 'x',
        }),
      );
    });

    it('accepts ${VAR} and ${secret:NAME} references in uri values, and nothing else that is not a URI', () => {
      const validate = createConfigValidator({ type: 'string', format: 'uri' });
      for (const good of [
        'https://example.com/mcp',
        'https://${HOST}:${PORT}/mcp',
        '${MCP_URL}',
        '${MCP_URL}/mcp',
        'http://h/${secret:PATH}',
      ])
        assert.ok(validate(good), good);
      for (const bad of [
        'not a url',
        '/relative/path',
        '${MCP_URL} trailing words',
        'https://exa mple.com/${X}',
        '${not a reference}',
      ])
        assert.ok(!validate(bad), bad);
    });
  });

  describe('fixtures', () => {
    const files = readdirSync(fixtures)
      .filter((file) => file.endsWith('.toml'))
      .sort();

    it('has a valid and an invalid fixture for each format, and an expectation for each invalid one', () => {
      assert.deepEqual(
        files.filter((f) => f.startsWith('valid-')),
        ['valid-full.toml', 'valid-minimal.toml', 'valid-openfang.toml'],
      );
      assert.deepEqual(
        files.filter((f) => f.startsWith('invalid-')),
        Object.keys(EXPECTED_ERRORS).sort(),
      );
    });

    for (const file of files.filter((f) => f.startsWith('valid-'))) {
      it(`accepts ${file}`, () => {
        assert.deepEqual(
          errorsFor(file).map((e) => `${e.instancePath} ${e.keyword} ${JSON.stringify(e.params)}`),
          [],
        );
      });
    }

    for (const [file, expected] of Object.entries(EXPECTED_ERRORS)) {
      it(`rejects ${file} with exactly the expected errors`, () => {
        const errors = errorsFor(file).sort(byPath);
        assert.deepEqual(
          errors.map(({ instancePath, keyword }) => ({ instancePath, keyword })),
          expected.map(({ instancePath, keyword }) => ({ instancePath, keyword })).sort(byPath),
        );
        for (const want of expected.filter((e) => e.params)) {
          const got = errors.find(
            (e) => e.instancePath === want.instancePath && e.keyword === want.keyword,
          );
          for (const [key, value] of Object.entries(want.params ?? {}))
            assert.deepEqual(
              got?.params[key],
              value,
              `${want.instancePath} ${want.keyword} params.${key}`,
            );
        }
      });
    }

    for (const [file, format] of [
      ['valid-full.toml', 'mgp'],
      ['valid-openfang.toml', 'openfang'],
    ] as const) {
      it(`exercises every key of the ${format} schema in ${file}`, () => {
        const used = usedKeys(parse(readFileSync(join(fixtures, file), 'utf8')), SCHEMAS[format]);
        const declared = walk(SCHEMAS[format])
          .filter((n) => n.isProperty)
          .map((n) => n.keys);
        assert.deepEqual(
          declared.filter((keys) => !used.has(keys)),
          [],
        );
      });
    }
  });

  describe('documentation', () => {
    for (const format of ['mgp', 'openfang'] as const) {
      it(`gives every ${format} schema node a description and a markdownDescription that cite their section`, () => {
        const cites = /\((?:MGP|MCPL|MCP|OpenFang)[ ,][^)]*\)|\b(?:MGP|MCPL|MCP) §\d/;
        const problems: string[] = [];
        for (const { path, node } of walk(SCHEMAS[format])) {
          if (typeof node.description !== 'string' || !node.description)
            problems.push(`${path}: no description`);
          else if (!cites.test(node.description))
            problems.push(`${path}: description cites no section`);
          if (typeof node.markdownDescription !== 'string' || !node.markdownDescription)
            problems.push(`${path}: no markdownDescription`);
          else if (!cites.test(node.markdownDescription))
            problems.push(`${path}: markdownDescription cites no section`);
          if (!node.type) problems.push(`${path}: no type`);
          if (node.type === 'object' && node.additionalProperties === undefined)
            problems.push(`${path}: additionalProperties not decided`);
        }
        assert.deepEqual(problems, []);
      });
    }
  });

  describe('vocabularies', () => {
    const names = (list: readonly VocabularyEntry[]) => list.map((entry) => entry.name);
    const mgpServer = mgpConfigSchema.properties?.servers.items;
    const kernel = mgpConfigSchema.properties?.kernel;
    const tool = Object.values(mgpServer?.properties?.tools.patternProperties ?? {})[0];

    it('match the schema enums (no drift)', () => {
      const pairs: [JsonSchema | undefined, readonly VocabularyEntry[]][] = [
        [mgpServer?.properties?.transport, vocabulary.TRANSPORTS],
        [mgpServer?.properties?.approval_policy, vocabulary.APPROVAL_POLICIES],
        [kernel?.properties?.approval_policy, vocabulary.APPROVAL_POLICIES],
        [mgpServer?.properties?.default_access_policy, vocabulary.ACCESS_POLICIES],
        [kernel?.properties?.default_access_policy, vocabulary.ACCESS_POLICIES],
        [
          kernel?.properties?.access_grants.items?.properties?.permission,
          vocabulary.GRANT_PERMISSIONS,
        ],
        [
          mgpServer?.properties?.access_grants.items?.properties?.permission,
          vocabulary.GRANT_PERMISSIONS,
        ],
        [mgpServer?.properties?.mgp.properties?.extensions.items, vocabulary.MGP_EXTENSIONS],
        [mgpServer?.properties?.mgp.properties?.trust_level, vocabulary.TRUST_LEVELS],
        [mgpServer?.properties?.mgp.properties?.restart_policy, vocabulary.RESTART_POLICIES],
        [tool?.properties?.risk_level, vocabulary.RISK_LEVELS],
        [tool?.properties?.side_effects.items, vocabulary.SIDE_EFFECTS],
        [tool?.properties?.validator, vocabulary.VALIDATORS],
        [
          openfangConfigSchema.properties?.mcp_servers.items?.properties?.transport.properties
            ?.type,
          vocabulary.OPENFANG_TRANSPORTS,
        ],
      ];
      for (const [schema, list] of pairs) {
        assert.deepEqual(schema?.enum, names(list));
        assert.deepEqual(
          schema?.enumDescriptions,
          list.map((entry) => entry.description),
        );
      }
      // Every enum in either schema comes from a vocabulary: none is written by hand.
      const lists = Object.values(vocabulary)
        .filter(
          (v): v is readonly VocabularyEntry[] => Array.isArray(v) && typeof v[0] === 'object',
        )
        .map(names);
      for (const { path, node } of [...walk(mgpConfigSchema), ...walk(openfangConfigSchema)].filter(
        (n) => n.node.enum,
      )) {
        assert.ok(
          lists.some((list) => JSON.stringify(list) === JSON.stringify(node.enum)),
          `${path} has an enum from no vocabulary`,
        );
      }
    });

    it('give the plain name lists in the order of the entries', () => {
      assert.deepEqual(
        vocabulary.STANDARD_PERMISSION_NAMES,
        names(vocabulary.STANDARD_PERMISSIONS),
      );
      assert.deepEqual(vocabulary.MGP_EXTENSION_NAMES, names(vocabulary.MGP_EXTENSIONS));
      assert.deepEqual(vocabulary.TRANSPORT_NAMES, ['stdio', 'http', 'sse']);
      assert.deepEqual(vocabulary.OPENFANG_TRANSPORT_NAMES, ['stdio', 'sse', 'http']);
      assert.deepEqual(vocabulary.TRUST_LEVEL_NAMES, ['trusted', 'standard', 'sandboxed']);
      assert.deepEqual(vocabulary.ACCESS_POLICY_NAMES, ['opt-in', 'opt-out']);
      assert.equal(vocabulary.STANDARD_PERMISSIONS.length, 11);
      assert.equal(vocabulary.MGP_EXTENSIONS.length, 10);
      for (const permission of vocabulary.STANDARD_PERMISSIONS)
        assert.ok(vocabulary.RISK_LEVEL_NAMES.includes(permission.risk ?? ''), permission.name);
      assert.ok(
        Object.isFrozen(vocabulary.STANDARD_PERMISSIONS) &&
          Object.isFrozen(vocabulary.STANDARD_PERMISSIONS[0]),
      );
    });

    it('recognise custom reverse-domain permissions, not misspelt standard ones (MGP §3.2)', () => {
      for (const name of [
        'com.example.custom_permission',
        'org.acme-corp.files.read',
        'io.github.tool_x',
      ])
        assert.ok(vocabulary.isReverseDomainPermission(name), name);
      for (const name of [
        'filesystem.read',
        'filesystem.raed',
        'camera',
        'com.example',
        'Com.Example.perm',
        'com..example.x',
        'com.example.',
        '.com.example.x',
        'com.-bad.x',
      ]) {
        assert.ok(!vocabulary.isReverseDomainPermission(name), name);
      }
    });

    it('tell feature-set names from wildcards (MCPL §6.3)', () => {
      for (const name of ['memory.retrieval', 'files.edit', 'memory', 'a.b.c'])
        assert.ok(
          vocabulary.FEATURE_SET_NAME.test(name) && !vocabulary.FEATURE_SET_WILDCARD.test(name),
          name,
        );
      for (const name of ['memory.*', 'a.b.*'])
        assert.ok(
          vocabulary.FEATURE_SET_WILDCARD.test(name) && !vocabulary.FEATURE_SET_NAME.test(name),
          name,
        );
      for (const name of ['*', '.*', 'memory.', 'memory..x', 'memory.*.x', 'mem ory', '']) {
        assert.ok(
          !vocabulary.FEATURE_SET_NAME.test(name) && !vocabulary.FEATURE_SET_WILDCARD.test(name),
          name,
        );
      }
    });
  });
});
