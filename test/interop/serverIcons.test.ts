import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IconCache } from '../../client/src/kernel/icons/iconCache';
import { iconsOf, pickIcons, sniffImage } from '../../client/src/kernel/icons/iconPolicy';
import { exampleServer, node, startKernel, type TestKernel } from './support/kernelHarness';

const EXAMPLE = `[[servers]]\nid = "example"\ncommand = ${node}\nargs = [${exampleServer}]\n`;

// MCP 2025-11-25 icons, as the example server sends them to the kernel over stdio.
describe('interop: server icons from the example server', () => {
  let k: TestKernel;
  before(async () => {
    k = await startKernel(EXAMPLE);
  });
  after(() => k.dispose());

  it('its serverInfo icons pass the rules, one for light themes and one for dark', async () => {
    const server = k.kernel.manager.get('example');
    assert.equal(server.state, 'connected');
    const icons = iconsOf(server.liveConnection?.serverInfo?.icons);
    assert.equal(icons.length, 2);
    const picked = pickIcons(icons);
    assert.equal(picked?.light.theme, 'light');
    assert.equal(picked?.dark.theme, 'dark');
    const cache = new IconCache(join(k.dir, 'icons'));
    for (const icon of [picked!.light, picked!.dark]) {
      const kept = await cache.resolve(icon);
      assert.ok(kept.ok, JSON.stringify(kept));
      assert.equal(sniffImage(readFileSync(kept.icon.path)), 'image/png');
    }
  });

  it('its tools, resource and prompt list icons the kernel may show', () => {
    const server = k.kernel.manager.get('example');
    assert.ok(server.tools.length > 0);
    for (const item of [...server.tools, ...server.resources, ...server.prompts])
      assert.ok(pickIcons(iconsOf(item.icons)), `${item.name} has an icon that may be shown`);
  });
});
