// Builds the explorer into dist/: the page and one bundled module (@polkadot/api and the smoldot
// light client included, so that the page needs nothing from the network but the chain it reads).
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
mkdirSync(dist, { recursive: true });
await build({
  entryPoints: [join(here, 'src/main.js')],
  outfile: join(dist, 'explorer.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  logLevel: 'warning',
});
copyFileSync(join(here, 'src/index.html'), join(dist, 'index.html'));
console.log(`built ${dist}`);
