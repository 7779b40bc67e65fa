import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../repoRoot';

// What a person reads first in the manifest (command titles, view names, setting descriptions and
// their choices) speaks plainly: spec section numbers belong in hovers and docs, not there.

interface Manifest {
  contributes: {
    commands: { command: string; title: string }[];
    views: Record<string, { id: string; name: string }[]>;
    configuration: {
      properties: Record<
        string,
        { description?: string; markdownDescription?: string; enumDescriptions?: string[] }
      >;
    };
  };
}

const manifest = JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')) as Manifest;

/** Each text a person reads, with where it is. */
function texts(): [where: string, text: string][] {
  const { commands, views, configuration } = manifest.contributes;
  return [
    ...commands.map((c): [string, string] => [c.command, c.title]),
    ...Object.values(views)
      .flat()
      .map((v): [string, string] => [v.id, v.name]),
    ...Object.entries(configuration.properties).flatMap(([key, p]) =>
      [p.description, p.markdownDescription, ...(p.enumDescriptions ?? [])]
        .filter((text): text is string => text !== undefined)
        .map((text): [string, string] => [key, text]),
    ),
  ];
}

describe('the words of the manifest', () => {
  it('name no spec section: titles, view names, settings and their choices', () => {
    const cited = texts().filter(([, text]) => /§\s*\d/.test(text));
    assert.deepEqual(cited, []);
  });

  it('reads every kind of text it judges', () => {
    const kinds = new Set(texts().map(([where]) => where.split('.')[1]));
    assert.ok(texts().length > 50, `${texts().length} texts`);
    assert.ok(kinds.size > 5, [...kinds].join(', '));
  });
});
