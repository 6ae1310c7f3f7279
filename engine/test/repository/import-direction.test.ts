// Imports point one way (../shared/DESIGN.md): types, columnar and spi at the bottom; parser -> analyzer ->
// planner -> exec; coordinator/ and worker/ above exec; server/ and cli/ on top. A worker build must
// not pull in the coordinator, and the planner never imports the executor's runtime.

import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { REPOSITORY_ROOT } from '../../scripts/shared-dir.js';
import { largestCycle } from './import-cycles.js';

const SRC = join(REPOSITORY_ROOT, 'engine', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

interface Import {
  /** Both relative to engine/src, e.g. 'exec/table-scan.ts' -> 'columnar/page.ts'. */
  from: string;
  to: string;
}

/** Every relative import of engine/src (static, re-exports and dynamic import()). */
function sourceImports(): Import[] {
  const pattern = /(?:from\s+|import\s*\(\s*|import\s+)'(\.{1,2}\/[^']+)'/g;
  return sourceFiles(SRC).flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return [...text.matchAll(pattern)].map((m) => ({
      from: relative(SRC, file),
      to: relative(SRC, join(dirname(file), m[1])).replace(/\.js$/, '.ts'),
    }));
  });
}

/**
 * The top-level folders of engine/src that import one another round a loop (measured by the last
 * test): every folder here can reach every other through imports, so none of them is a layer yet.
 */
const LARGEST_CYCLE = ['connectors', 'functions', 'security', 'sql'];

const inside = (path: string, dirs: readonly string[]) => dirs.some((d) => path.startsWith(`${d}/`));
const describeImports = (imports: Import[]) => imports.map((i) => `${i.from} -> ${i.to}`);

describe('import direction', () => {
  const imports = sourceImports();

  it('reads the imports of engine/src', () => {
    expect(imports.length).to.be.greaterThan(500);
    expect(describeImports(imports)).to.include('exec/table-scan.ts -> columnar/page.ts');
  });

  it('keeps spi, types, sql, functions, connectors and exec below coordinator, worker, server and cli', () => {
    const lower = ['spi', 'types', 'sql', 'functions', 'connectors', 'exec'];
    const upper = ['coordinator', 'worker', 'server', 'cli'];
    expect(describeImports(imports.filter((i) => inside(i.from, lower) && inside(i.to, upper)))).to.deep.equal([]);
  });

  it('keeps the planner and analyzer off the executor', () => {
    expect(describeImports(imports.filter((i) => inside(i.from, ['sql']) && inside(i.to, ['exec'])))).to.deep.equal([]);
  });

  it('keeps the planner below the analyzer', () => {
    expect(describeImports(imports.filter((i) => inside(i.from, ['sql/planner']) && inside(i.to, ['sql/analyzer'])))).to.deep.equal([]);
  });

  it('builds spi only on columnar, types and errors', () => {
    expect(
      describeImports(imports.filter((i) => inside(i.from, ['spi']) && !inside(i.to, ['spi', 'columnar', 'types', 'errors']))),
    ).to.deep.equal([]);
  });

  it('builds the columnar layer (pages, hashing, Arrow layout, yielding) only on types, errors and process', () => {
    const below = ['columnar', 'types', 'errors', 'process'];
    expect(describeImports(imports.filter((i) => inside(i.from, ['columnar']) && !inside(i.to, below)))).to.deep.equal([]);
  });

  it('keeps types off spi, columnar, functions and exec', () => {
    const above = ['spi', 'columnar', 'functions', 'exec'];
    expect(describeImports(imports.filter((i) => inside(i.from, ['types']) && inside(i.to, above)))).to.deep.equal([]);
  });

  it('builds config (with the schemas of its sections) only on process, types and errors', () => {
    const below = ['config', 'process', 'types', 'errors'];
    expect(describeImports(imports.filter((i) => inside(i.from, ['config']) && !inside(i.to, below)))).to.deep.equal([]);
  });

  it('keeps functions off the executor (reduce_agg gets its lambda compiler from it)', () => {
    expect(describeImports(imports.filter((i) => inside(i.from, ['functions']) && inside(i.to, ['exec'])))).to.deep.equal([]);
  });

  it('keeps connectors off the executor (the split readers by name live in exec/threads)', () => {
    expect(describeImports(imports.filter((i) => inside(i.from, ['connectors']) && inside(i.to, ['exec'])))).to.deep.equal([]);
  });

  it('keeps cli on top: nothing else in engine/src imports it (the node client is in internode)', () => {
    expect(describeImports(imports.filter((i) => !inside(i.from, ['cli']) && inside(i.to, ['cli'])))).to.deep.equal([]);
  });

  it('keeps security and worker off server, coordinator and cli (HttpError in errors/, the authentication middleware in server/)', () => {
    const upper = ['server', 'coordinator', 'cli'];
    expect(describeImports(imports.filter((i) => inside(i.from, ['security', 'worker']) && inside(i.to, upper)))).to.deep.equal([]);
  });

  it('keeps the coordinator off the server but for the UI API types', () => {
    const fromCoordinator = imports.filter((i) => inside(i.from, ['coordinator']) && inside(i.to, ['server']));
    expect(describeImports(fromCoordinator.filter((i) => i.to !== 'server/ui/ui-api.ts'))).to.deep.equal([]);
  });

  it('keeps each connector off the others (what they share lives in spi)', () => {
    const connector = (path: string) => /^connectors\/([^/]+)\//.exec(path)?.[1];
    const across = imports.filter((i) => {
      const [from, to] = [connector(i.from), connector(i.to)];
      return from !== undefined && to !== undefined && from !== to;
    });
    expect(describeImports(across)).to.deep.equal([]);
  });

  it('keeps the largest import cycle between top-level folders from growing', () => {
    const cycle = largestCycle(
      imports
        .filter((i) => i.from.includes('/') && i.to.includes('/'))
        .map((i) => ({ from: i.from.split('/')[0], to: i.to.split('/')[0] })),
    );
    // Folders that import one another, directly or round a loop; shrink this list as layers are fixed.
    expect(cycle).to.deep.equal(LARGEST_CYCLE);
  });
});
