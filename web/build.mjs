// Bundles the client, minified, into bot/web/static/ (app.js, app.css, index.html): the
// folder the web server serves. It is build output (gitignored); scripts/setup runs this.
import {build} from 'esbuild';
import {copyFile, mkdir} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'bot', 'web', 'static');
await mkdir(out, {recursive: true});
await build({
  entryPoints: {app: join(here, 'src', 'main.ts')},
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2020', 'chrome100', 'safari15'],
  outdir: out,
  legalComments: 'none',
  logLevel: 'warning',
});
await build({
  entryPoints: {app: join(here, 'src', 'app.css')},
  bundle: true,
  minify: true,
  outdir: out,
  logLevel: 'warning',
});
await copyFile(join(here, 'src', 'index.html'), join(out, 'index.html'));
