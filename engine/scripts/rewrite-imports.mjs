#!/usr/bin/env node
// Rewrites relative import specifiers in the repository's TypeScript files after files (and a few
// exported names) moved, so branches written against the old layout build against the new one.
//
//   node engine/scripts/rewrite-imports.mjs [--map engine/scripts/moves.json] [--dry-run] [paths...]
//
// paths: files or folders to rewrite (default: engine, operator, e2e under the repository root);
// node_modules and dist are skipped. It prints the files it changed; run
// `npx biome check --write <those files>` afterwards, since a rewritten import keeps its line breaks
// but may now be longer or shorter than the formatter wants.
//
// The map (moves.json) holds, relative to the repository root:
//   files:   [[from, to], ...]  a file moved (git mv); chains (a -> b, b -> c) are followed;
//   folders: [[from, to], ...] a folder whose files all moved (with the files listed under files):
//            a file found in `to` that the map does not list (added on another branch, moved along by
//            git's directory-rename detection) has its specifiers resolved from `from` too;
//   symbols: [{ name, from, to }] an exported name left one module for another; a named import of it
//            (`import { type Scalar, getScalar } from '../spi/page.js'`) is split so the name comes
//            from its new module (`from` may be written as the old or the moved path);
//   renames: [{ module, name, to }] an exported name renamed: every whole-word use of it is renamed in
//            the module itself and in every file importing that module (module: old or moved path).
// A specifier is rewritten only when it no longer resolves to a file: first from the importing
// file's own folder, then (for a file that itself moved) from its old folder. So running the script
// twice changes nothing the second time, and imports that still resolve are left alone.
// `.js` specifiers that still name no source file afterwards are listed on stderr, to be checked by
// hand (a few name build output on purpose, as engine/test/ui's imports of engine/dist/ui).
// Specifiers handled: `from '…'`, `import '…'`, `import('…')` and `new URL('…', import.meta.url)`.

import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const dryRun = args.includes('--dry-run');
const mapArg = args.indexOf('--map');
const mapPath = mapArg >= 0 ? resolve(args[mapArg + 1]) : join(repoRoot, 'engine/scripts/moves.json');
const roots = args.filter((a, i) => !a.startsWith('--') && (mapArg < 0 || i !== mapArg + 1));

const map = JSON.parse(readFileSync(mapPath, 'utf8'));
const movedTo = new Map(map.files.map(([from, to]) => [join(repoRoot, from), join(repoRoot, to)]));
const finalPath = (file) => {
  for (let hops = 0; movedTo.has(file) && hops < 100; hops++) file = movedTo.get(file);
  return file;
};
const folders = (map.folders ?? []).map(([from, to]) => [join(repoRoot, from), join(repoRoot, to)]);
/** Every earlier path of a file now at `file`. */
const oldPaths = new Map();
for (const from of movedTo.keys()) {
  const to = finalPath(from);
  oldPaths.set(to, [...(oldPaths.get(to) ?? []), from]);
}
const renames = new Map();
for (const r of map.renames ?? []) {
  const module = finalPath(join(repoRoot, r.module));
  renames.set(module, [...(renames.get(module) ?? []), { pattern: new RegExp(`\\b${r.name}\\b`, 'g'), to: r.to }]);
}
const symbols = (map.symbols ?? []).map((s) => ({ name: s.name, from: finalPath(join(repoRoot, s.from)), to: finalPath(join(repoRoot, s.to)) }));

function tsFiles(path, out) {
  const base = path.split('/').pop();
  if (base === 'node_modules' || base === 'dist' || base === '.git') return out;
  if (statSync(path).isDirectory()) for (const name of readdirSync(path)) tsFiles(join(path, name), out);
  else if (path.endsWith('.ts') && !path.endsWith('.d.ts')) out.push(path);
  return out;
}

/** The source file a relative specifier names (a `.js` specifier names its `.ts` or `.d.ts` source). */
const sourceOf = (dir, spec) => {
  const target = resolve(dir, spec);
  if (!target.endsWith('.js') || existsSync(target)) return target;
  const declaration = `${target.slice(0, -3)}.d.ts`;
  return existsSync(declaration) ? declaration : `${target.slice(0, -3)}.ts`;
};

function specifierFor(file, target, original) {
  let spec = relative(dirname(file), target);
  if (original.endsWith('.js') && spec.endsWith('.ts')) spec = `${spec.slice(0, -3)}.js`;
  return spec.startsWith('.') ? spec : `./${spec}`;
}

/** The specifier rewritten to the moved file, or undefined when it still resolves (or is unknown). */
function movedSpecifier(file, spec) {
  if (existsSync(sourceOf(dirname(file), spec))) return undefined;
  const earlier = oldPaths.get(file) ?? folders.filter(([, to]) => file.startsWith(`${to}/`)).map(([from, to]) => from + file.slice(to.length));
  for (const dir of [dirname(file), ...earlier.map(dirname)]) {
    const source = sourceOf(dir, spec);
    const moved = finalPath(source);
    if (existsSync(moved)) return specifierFor(file, moved, spec);
  }
  return undefined;
}

const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bnew URL\(\s*)(['"])(\.{1,2}\/[^'"\n]*)\2/g;
const NAMED = /\b(import|export)(\s+type)?\s*\{([^}]*)\}\s*from\s*(['"])(\.{1,2}\/[^'"\n]+)\4;?/g;

/** Splits named imports of moved names into imports from their new modules. */
function splitMovedNames(file, text) {
  return text.replace(NAMED, (statement, keyword, typeOnly, list, quote, spec) => {
    const source = sourceOf(dirname(file), spec);
    const leaving = symbols.filter((s) => s.from === source);
    if (leaving.length === 0) return statement;
    const items = list
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
    const nameOf = (item) => item.replace(/^type\s+/, '').split(/\s+as\s+/)[0];
    const moving = new Map();
    const staying = [];
    for (const item of items) {
      const symbol = leaving.find((s) => s.name === nameOf(item));
      if (!symbol) staying.push(item);
      else moving.set(symbol.to, [...(moving.get(symbol.to) ?? []), item]);
    }
    if (moving.size === 0) return statement;
    /** One statement; `import type { a, b }` when every name in it is a type. */
    const statementOf = (names, from) => {
      const allTypes = typeOnly || names.every((item) => item.startsWith('type '));
      const list = allTypes ? names.map((item) => item.replace(/^type\s+/, '')) : names;
      return `${keyword}${allTypes ? ' type' : ''} { ${list.join(', ')} } from ${quote}${from}${quote};`;
    };
    const lines = staying.length > 0 ? [statementOf(staying, spec)] : [];
    for (const [to, moved] of moving) lines.push(statementOf(moved, specifierFor(file, to, spec)));
    return lines.join('\n');
  });
}

/** Renames the names of the modules a file is or imports. */
function renameNames(file, text) {
  const modules = new Set([file]);
  for (const [, , , spec] of text.matchAll(SPECIFIER)) modules.add(sourceOf(dirname(file), spec));
  let result = text;
  for (const module of modules) for (const { pattern, to } of renames.get(module) ?? []) result = result.replace(pattern, to);
  return result;
}

const changed = [];
const unresolved = [];
const targets = roots.length > 0 ? roots.map((r) => resolve(r)) : ['engine', 'operator', 'e2e'].map((r) => join(repoRoot, r));
for (const file of targets.flatMap((root) => tsFiles(root, []))) {
  const text = readFileSync(file, 'utf8');
  const moved = text.replace(SPECIFIER, (whole, lead, quote, spec) => {
    const next = movedSpecifier(file, spec);
    return next === undefined ? whole : `${lead}${quote}${next}${quote}`;
  });
  const split = symbols.length > 0 ? splitMovedNames(file, moved) : moved;
  const result = renames.size > 0 ? renameNames(file, split) : split;
  for (const [, , , spec] of result.matchAll(SPECIFIER)) {
    if (spec.endsWith('.js') && !existsSync(sourceOf(dirname(file), spec))) unresolved.push(`${relative(process.cwd(), file)}: ${spec}`);
  }
  if (result === text) continue;
  changed.push(relative(process.cwd(), file));
  if (!dryRun) writeFileSync(file, result);
}
for (const file of changed) console.log(file);
console.error(`${changed.length} file(s) ${dryRun ? 'would change' : 'changed'}`);
for (const line of unresolved) console.error(`names no source file: ${line}`);
