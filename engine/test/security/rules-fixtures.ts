// Rules files and a harness with access rules, shared by the access control tests.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createAccessControl } from '../../src/security/access-control/access-control-setup.js';
import type { FileAccessControl } from '../../src/security/access-control/file-access-control.js';
import type { Logger } from '../../src/log/logger.js';
import { EngineHarness } from '../support/engine-harness.js';

const ALL_PRIVILEGES = ['SELECT', 'INSERT', 'DELETE', 'UPDATE', 'OWNERSHIP', 'GRANT_SELECT'];

/** admin and alice own memory (alice without GRANT_SELECT); bob reads some of it; dave's group reads tpch. */
export const RULES = {
  catalogs: [
    { user: 'admin', allow: 'all' },
    { user: 'alice|bob|carol|viewer|banned', catalog: 'memory', allow: 'all' },
    { user: 'bob', catalog: 'tpch', allow: 'read-only' },
    { group: 'analysts', catalog: 'tpch', allow: 'read-only' },
    { user: 'rita', catalog: 'memory', allow: 'read-only' },
    { catalog: 'system', allow: 'read-only' },
    { allow: 'none' },
  ],
  schemas: [
    { user: 'admin|alice', owner: true },
    { user: 'bob', schema: 'bobs', owner: true },
    { user: 'rita', owner: true },
  ],
  tables: [
    { user: 'admin', privileges: ALL_PRIVILEGES },
    { user: 'rita', privileges: ALL_PRIVILEGES },
    { user: 'alice', catalog: 'memory', privileges: ['SELECT', 'INSERT', 'DELETE', 'UPDATE', 'OWNERSHIP'] },
    {
      user: 'bob',
      catalog: 'memory',
      schema: 'default',
      table: 'orders',
      privileges: ['SELECT'],
      columns: [{ name: 'secret', allow: false }],
    },
    { user: 'bob', catalog: 'memory', schema: 'default', table: 'open_view|invoker_view|hidden_view|alice_view', privileges: ['SELECT'] },
    { user: 'bob', catalog: 'memory', schema: 'default', table: 'inserts', privileges: ['INSERT'] },
    {
      user: 'bob',
      catalog: 'memory',
      schema: 'default',
      table: 'changes',
      privileges: ['SELECT', 'DELETE', 'UPDATE'],
      columns: [{ name: 'secret', allow: false }],
    },
    { user: 'bob', catalog: 'memory', schema: 'bobs', privileges: ['OWNERSHIP', 'SELECT'] },
    { user: 'bob', catalog: 'tpch', privileges: ['SELECT'] },
    { group: 'analysts', catalog: 'tpch', privileges: ['SELECT'] },
    { catalog: 'system', schema: 'runtime', table: 'queries', privileges: ['SELECT'] },
  ],
  queries: [
    { user: 'viewer', queryOwner: 'alice', allow: ['view'] },
    { user: 'admin', queryOwner: '.*', allow: ['view', 'kill'] },
    { user: 'banned', allow: [] },
    { allow: ['execute'] },
  ],
  impersonation: [
    { original_user: '(.*)_admin', new_user: '$1' },
    { original_user: 'admin', new_user: 'bob', allow: false },
    { original_user: 'admin', new_user: '.*' },
  ],
  system_session_properties: [{ user: 'bob', property: 'query_max_memory', allow: false }, { allow: true }],
};

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'engine-rules-'));
}

export function writeJson(path: string, value: unknown): string {
  writeFileSync(path, JSON.stringify(value, null, 2));
  return path;
}

/** A logger whose lines the test reads. */
export function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(
        ...chunk
          .toString()
          .split('\n')
          .filter((l) => l !== ''),
      );
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

/** Access control from files, checked again on every use (refresh period 0). */
export function accessControlFrom(rulesFile: string, options: { groupFile?: string; logger?: Logger } = {}): FileAccessControl {
  return createAccessControl({ adminUsers: [], rulesFile, rulesRefreshPeriod: 0, groupFile: options.groupFile }, options.logger)!;
}

/**
 * A harness whose memory catalog admin filled: memory.default.orders (id, amount, secret), inserts,
 * hidden, changes (id, secret), and views over them by admin (definer and invoker) and by alice; then the rules apply.
 */
export async function harnessWithRules(rulesFile: string, groupFile?: string): Promise<EngineHarness> {
  const harness = new EngineHarness();
  await harness.run(
    'CREATE TABLE orders (id bigint, amount bigint, secret varchar)',
    "INSERT INTO orders VALUES (1, 10, 'x'), (2, 20, 'y'), (3, 30, 'z')",
    'CREATE TABLE inserts (x bigint)',
    'CREATE TABLE hidden (x bigint)',
    'INSERT INTO hidden VALUES (7)',
    "CREATE TABLE changes AS SELECT * FROM (VALUES (1, 'a'), (2, 'b'), (3, 'c')) t(id, secret)",
  );
  harness.session.user = 'admin';
  await harness.run(
    'CREATE VIEW open_view AS SELECT id, amount FROM orders',
    'CREATE VIEW secret_view AS SELECT secret FROM orders',
    'CREATE VIEW hidden_view AS SELECT x FROM hidden',
    'CREATE VIEW invoker_view SECURITY INVOKER AS SELECT id, secret FROM orders',
  );
  harness.session.user = 'alice';
  await harness.run('CREATE VIEW alice_view AS SELECT id FROM orders');
  harness.catalogs.accessControl = accessControlFrom(rulesFile, { groupFile });
  return harness;
}
