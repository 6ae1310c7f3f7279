// The web interface's files: the page (one HTML document for every /ui/ path; the browser code
// routes), the compiled browser code (engine/dist/ui, built by `tsc -b` from engine/ui), its style
// sheet (engine/ui/static), and the libraries it runs on, served from their npm packages as
// installed (a fixed list of files: no CDN, nothing fetched at install). An import map names the
// libraries for the browser's module loader, so no bundler is needed. Files are sent gzipped when
// the browser takes it, revalidated by ETag.

import type Router from '@koa/router';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Context } from 'koa';
import { HttpError } from '../../errors/http-error.js';

const here = dirname(fileURLToPath(import.meta.url));
/** engine/dist/src/server/ui -> engine/dist/ui (the compiled browser code). */
const ASSETS_DIR = join(here, '..', '..', '..', 'ui');
/** engine/dist/src/server/ui -> engine/ui/static (files served as they are). */
const STATIC_DIR = join(here, '..', '..', '..', '..', 'ui', 'static');

/** The library files the page may load: URL name -> package and file in it. */
const VENDOR_FILES: Readonly<Record<string, readonly [string, string]>> = {
  'preact.mjs': ['preact', 'dist/preact.mjs'],
  'preact-hooks.mjs': ['preact', 'hooks/dist/hooks.mjs'],
  'htm.mjs': ['htm', 'dist/htm.module.js'],
  'htm-preact.mjs': ['htm', 'preact/index.module.js'],
  'signals.mjs': ['@preact/signals', 'dist/signals.module.js'],
  'signals-core.mjs': ['@preact/signals-core', 'dist/signals-core.module.js'],
  // uPlot publishes its minified build as a script that defines the global uPlot.
  'uplot.js': ['uplot', 'dist/uPlot.iife.min.js'],
  'uplot.css': ['uplot', 'dist/uPlot.min.css'],
  'dagre.mjs': ['@dagrejs/dagre', 'dist/dagre.esm.js'],
};

/** Bare module names of the browser code -> URLs. */
export const IMPORT_MAP = {
  imports: {
    preact: '/ui/vendor/preact.mjs',
    'preact/hooks': '/ui/vendor/preact-hooks.mjs',
    htm: '/ui/vendor/htm.mjs',
    'htm/preact': '/ui/vendor/htm-preact.mjs',
    '@preact/signals': '/ui/vendor/signals.mjs',
    '@preact/signals-core': '/ui/vendor/signals-core.mjs',
    '@dagrejs/dagre': '/ui/vendor/dagre.mjs',
  },
};

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.html': 'text/html; charset=utf-8',
};

interface CachedFile {
  mtimeMs: number;
  body: Buffer;
  gzipped: Buffer;
  etag: string;
  type: string;
}

export function uiStaticRoutes(router: Router): void {
  const files = new StaticFiles();
  const page = indexPage();

  // The router matches '/ui/' for '/' and '/ui' as well (it is not strict about a trailing slash).
  router.get(['/', '/ui'], async (ctx, next) => (ctx.path === '/' || ctx.path === '/ui' ? ctx.redirect('/ui/') : next()));
  router.get('/ui/vendor/:name', async (ctx) => {
    const entry = VENDOR_FILES[ctx.params.name!];
    if (entry === undefined) throw new HttpError(404, `Not found: ${ctx.path}`, 'NOT_FOUND');
    await files.send(ctx, join(packageDir(entry[0]), entry[1]));
  });
  router.get(/^\/ui\/assets\/.+$/, async (ctx) => files.send(ctx, inside(ASSETS_DIR, ctx.path.slice('/ui/assets/'.length))));
  router.get(/^\/ui\/static\/.+$/, async (ctx) => files.send(ctx, inside(STATIC_DIR, ctx.path.slice('/ui/static/'.length))));
  // Every other /ui/ path is a page of the interface: the same document, routed in the browser.
  router.get(/^\/ui\/(?!api\/|assets\/|vendor\/|static\/).*$/, (ctx) => {
    ctx.set('Content-Security-Policy', page.contentSecurityPolicy);
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page.html;
  });
}

/** The one HTML document: the style sheets, the import map, the entry module. */
function indexPage(): { html: string; contentSecurityPolicy: string } {
  const importMap = JSON.stringify(IMPORT_MAP);
  const mapHash = createHash('sha256').update(importMap).digest('base64');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Engine</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/ui/static/app.css">
<link rel="stylesheet" href="/ui/vendor/uplot.css">
<script type="importmap">${importMap}</script>
<link rel="modulepreload" href="/ui/vendor/preact.mjs">
<link rel="modulepreload" href="/ui/assets/main.js">
</head>
<body>
<div id="app"></div>
<script type="module" src="/ui/assets/main.js"></script>
</body>
</html>
`;
  // Only this server's scripts (and the import map, by its hash); uPlot sets element styles, so inline style attributes are allowed.
  const contentSecurityPolicy = `default-src 'self'; script-src 'self' 'sha256-${mapHash}'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'`;
  return { html, contentSecurityPolicy };
}

/** A path under `root` from a URL; anything that would leave it is a 404. */
function inside(root: string, path: string): string {
  const full = normalize(join(root, path));
  if (!full.startsWith(root + sep)) throw new HttpError(404, `Not found: ${path}`, 'NOT_FOUND');
  return full;
}

/** The folder of an installed package, found as Node finds it: node_modules folders up from here. */
function packageDir(name: string): string {
  for (let dir = here; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) throw new HttpError(500, `The web interface's package ${name} is not installed`, 'UI_PACKAGE_MISSING');
  }
}

class StaticFiles {
  private readonly cache = new Map<string, CachedFile>();

  async send(ctx: Context, path: string): Promise<void> {
    const file = await this.read(path);
    if (file === undefined) throw new HttpError(404, `Not found: ${ctx.path}`, 'NOT_FOUND');
    ctx.set('ETag', file.etag);
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('Vary', 'Accept-Encoding');
    ctx.type = file.type;
    if (ctx.get('If-None-Match') === file.etag) {
      ctx.status = 304;
      return;
    }
    if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
      ctx.set('Content-Encoding', 'gzip');
      ctx.body = file.gzipped;
    } else {
      ctx.body = file.body;
    }
  }

  private async read(path: string): Promise<CachedFile | undefined> {
    const info = await stat(path).catch(() => undefined);
    if (info === undefined || !info.isFile()) return undefined;
    const cached = this.cache.get(path);
    if (cached !== undefined && cached.mtimeMs === info.mtimeMs) return cached;
    const body = await readFile(path);
    const file = {
      mtimeMs: info.mtimeMs,
      body,
      gzipped: gzipSync(body, { level: 9 }),
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
      type: TYPES[extname(path)] ?? 'application/octet-stream',
    };
    this.cache.set(path, file);
    return file;
  }
}
