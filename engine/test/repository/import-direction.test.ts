// Imports point one way (../shared/DESIGN.md): types, columnar and spi at the bottom; parser -> analyzer ->
// planner -> exec; coordinator/ and worker/ above exec; server/ and cli/ on top. A worker build must
// not pull in the coordinator, and the planner never imports the executor's runtime.

import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { REPOSITORY_ROOT } from '../../scripts/shared-dir.js';

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

  it('keeps types and config off spi, columnar, functions and exec', () => {
    const above = ['spi', 'columnar', 'functions', 'exec'];
    expect(describeImports(imports.filter((i) => inside(i.from, ['types', 'config']) && inside(i.to, above)))).to.deep.equal([]);
  });
});
