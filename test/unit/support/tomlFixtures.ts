import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../repoRoot';

function tomlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? tomlFiles(path) : name.endsWith('.toml') ? [path] : [];
  });
}

/** Every TOML file under test/fixtures and examples, named relative to the repository. */
export function tomlFixtures(): { name: string; text: string }[] {
  const root = repoRoot();
  return [...tomlFiles(join(root, 'test/fixtures')), ...tomlFiles(join(root, 'examples'))].map(
    (file) => ({
      name: file.slice(root.length + 1),
      text: readFileSync(file, 'utf8'),
    }),
  );
}
