// The repository runs wherever it is checked out: tests and scripts find ../shared relative to the
// repository root, never through an absolute path of one machine.

import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPOSITORY_ROOT, sharedPath } from '../../scripts/shared-dir.js';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mjs|js|json)$/.test(name) ? [path] : [];
  });
}

describe('repository paths', () => {
  it('finds ../shared beside the repository root', () => {
    expect(existsSync(sharedPath('tpch', 'queries', 'q01.sql'))).to.equal(true);
    expect(relative(REPOSITORY_ROOT, sharedPath())).to.equal(join('..', 'shared'));
  });

  it('has no absolute machine paths in the tests, the scripts or the Makefile', () => {
    const files = [
      ...sourceFiles(join(REPOSITORY_ROOT, 'engine', 'test')),
      ...sourceFiles(join(REPOSITORY_ROOT, 'engine', 'scripts')),
      join(REPOSITORY_ROOT, 'Makefile'),
    ];
    // Built from parts, so that this file does not match itself.
    const absolute = new RegExp(['/work', '/(shared|main)\\b'].join(''));
    const offenders = files.filter((file) => absolute.test(readFileSync(file, 'utf8'))).map((file) => relative(REPOSITORY_ROOT, file));
    expect(offenders).to.deep.equal([]);
  });
});
