// The statements of Trino's grammar beyond those the engine runs: their AST, the locations of their
// parts, and their round trip through the formatter (which proves no clause is dropped).

import { expect } from 'chai';
import type { Statement } from '../../src/sql/parser/ast.js';
import { parseStatement } from '../../src/sql/parser/parser.js';
import { expectStatementRoundTrip, stripLocations, syntaxError } from './helpers.js';

function ast(sql: string): unknown {
  return stripLocations(parseStatement(sql));
}

/** The statement, typed as the kind it must be. */
function statement<K extends Statement['kind']>(sql: string, kind: K): Extract<Statement, { kind: K }> {
  const s = parseStatement(sql);
  expect(s.kind, sql).to.equal(kind);
  return s as Extract<Statement, { kind: K }>;
}

const at = (line: number, column: number) => ({ line, column });
const id = (value: string, quoted = false) => ({ kind: 'Identifier', value, quoted });
const name = (...parts: string[]) => ({ kind: 'QualifiedName', parts: parts.map((p) => id(p)) });
const int = (n: number) => ({ kind: 'LongLiteral', value: BigInt(n), text: String(n) });
const str = (value: string) => ({ kind: 'StringLiteral', value });
const type = (typeName: string, parameters: number[] = []) => ({ kind: 'TypeSpec', name: typeName, parameters });
const principal = (value: string, principalType?: 'USER' | 'ROLE') => ({
  kind: 'Principal',
  ...(principalType ? { type: principalType } : {}),
  name: id(value),
});

describe('parser: the rest of the grammar (statements)', () => {
  it('reads UPDATE with a branch, assignments and WHERE', () => {
    expect(ast('UPDATE t @ b1 SET a = 1, c = c + 1 WHERE c > 2')).to.deep.equal({
      kind: 'Update',
      table: name('t'),
      branch: id('b1'),
      assignments: [
        { kind: 'UpdateAssignment', column: id('a'), value: int(1) },
        { kind: 'UpdateAssignment', column: id('c'), value: { kind: 'ArithmeticBinary', operator: '+', left: id('c'), right: int(1) } },
      ],
      where: { kind: 'Comparison', operator: '>', left: id('c'), right: int(2) },
    });
    const update = statement('UPDATE t\n  SET a = 1', 'Update');
    expect(update.location).to.deep.equal(at(1, 1));
    expect(update.assignments[0].location).to.deep.equal(at(2, 7));
  });

  it('reads MERGE with its alias, source relation and every kind of WHEN clause', () => {
    const merge = statement(
      'MERGE INTO t AS x USING (SELECT * FROM s) y ON x.a = y.a WHEN MATCHED AND y.d THEN DELETE WHEN MATCHED THEN UPDATE SET b = y.b WHEN NOT MATCHED THEN INSERT (a, b) VALUES (y.a, y.b)',
      'Merge',
    );
    expect(stripLocations(merge)).to.deep.include({ target: name('t'), alias: id('x') });
    expect(merge.source.kind).to.equal('AliasedRelation');
    expect(merge.on.kind).to.equal('Comparison');
    expect(merge.cases.map((c) => c.kind)).to.deep.equal(['MergeDelete', 'MergeUpdate', 'MergeInsert']);
    expect(stripLocations(merge.cases[0])).to.deep.equal({
      kind: 'MergeDelete',
      condition: { kind: 'Dereference', base: id('y'), field: id('d') },
    });
    expect(stripLocations(merge.cases[2])).to.deep.include({ columns: [id('a'), id('b')] });
    expect(merge.cases[1].location).to.deep.equal(at(1, 91));
    expect(ast('MERGE INTO t u USING s ON true WHEN NOT MATCHED THEN INSERT VALUES (1)')).to.deep.include({ alias: id('u') });
    expect(ast('MERGE INTO t USING s ON true WHEN MATCHED THEN DELETE')).to.not.have.property('alias');
  });

  it('reads CREATE / DROP / ALTER VIEW and MATERIALIZED VIEW', () => {
    expect(ast("CREATE OR REPLACE VIEW v COMMENT 'c' SECURITY INVOKER WITH (a = 1) AS SELECT 1")).to.deep.include({
      kind: 'CreateView',
      replace: true,
      name: name('v'),
      comment: 'c',
      security: 'INVOKER',
      properties: [{ kind: 'Property', name: id('a'), value: int(1) }],
    });
    const mv = statement(
      "CREATE MATERIALIZED VIEW IF NOT EXISTS m GRACE PERIOD INTERVAL '2' HOUR WHEN STALE FAIL AS SELECT 1",
      'CreateMaterializedView',
    );
    expect(stripLocations(mv)).to.deep.include({ replace: false, notExists: true, whenStale: 'FAIL' });
    expect(stripLocations(mv.gracePeriod)).to.deep.equal({ kind: 'IntervalLiteral', value: '2', sign: 1, startField: 'HOUR' });
    expect(ast('DROP VIEW IF EXISTS a.v')).to.deep.equal({ kind: 'DropView', exists: true, name: name('a', 'v') });
    expect(ast('DROP MATERIALIZED VIEW m')).to.deep.equal({ kind: 'DropMaterializedView', exists: false, name: name('m') });
    expect(ast('ALTER VIEW v RENAME TO w')).to.deep.equal({ kind: 'RenameView', source: name('v'), target: name('w') });
    expect(ast('ALTER VIEW v REFRESH')).to.deep.equal({ kind: 'RefreshView', name: name('v') });
    expect(ast('ALTER MATERIALIZED VIEW IF EXISTS m RENAME TO n')).to.deep.equal({
      kind: 'RenameMaterializedView',
      exists: true,
      source: name('m'),
      target: name('n'),
    });
    expect(ast('ALTER MATERIALIZED VIEW m SET PROPERTIES a = DEFAULT')).to.deep.equal({
      kind: 'SetProperties',
      target: 'MATERIALIZED VIEW',
      name: name('m'),
      properties: [{ kind: 'Property', name: id('a') }],
    });
    expect(ast('REFRESH MATERIALIZED VIEW m')).to.deep.equal({ kind: 'RefreshMaterializedView', name: name('m') });
  });

  it('reads every form of ALTER TABLE', () => {
    expect(ast('ALTER TABLE IF EXISTS t RENAME TO u')).to.deep.equal({
      kind: 'RenameTable',
      tableExists: true,
      source: name('t'),
      target: name('u'),
    });
    expect(ast('ALTER TABLE t ADD COLUMN IF NOT EXISTS r.f bigint NOT NULL AFTER b')).to.deep.equal({
      kind: 'AddColumn',
      tableExists: false,
      table: name('t'),
      columnNotExists: true,
      column: { kind: 'ColumnDefinition', name: id('f'), fieldPath: [id('r')], type: type('bigint'), nullable: false },
      position: { kind: 'AFTER', column: id('b') },
    });
    expect(ast('ALTER TABLE t ADD COLUMN c int FIRST')).to.deep.include({ position: { kind: 'FIRST' } });
    expect(ast('ALTER TABLE t RENAME COLUMN IF EXISTS a TO b')).to.deep.equal({
      kind: 'RenameColumn',
      tableExists: false,
      table: name('t'),
      columnExists: true,
      source: name('a'),
      target: id('b'),
    });
    expect(ast('ALTER TABLE t DROP COLUMN a.b')).to.deep.equal({
      kind: 'DropColumn',
      tableExists: false,
      table: name('t'),
      columnExists: false,
      column: name('a', 'b'),
    });
    expect(ast('ALTER TABLE t ALTER COLUMN a SET DEFAULT 5')).to.deep.equal({
      kind: 'SetColumnDefault',
      tableExists: false,
      table: name('t'),
      column: name('a'),
      defaultValue: int(5),
    });
    expect(ast('ALTER TABLE t ALTER COLUMN a DROP DEFAULT')).to.deep.equal({
      kind: 'DropColumnDefault',
      tableExists: false,
      table: name('t'),
      column: name('a'),
    });
    expect(ast('ALTER TABLE t ALTER COLUMN a SET DATA TYPE varchar(3)')).to.deep.equal({
      kind: 'SetColumnType',
      tableExists: false,
      table: name('t'),
      column: name('a'),
      type: type('varchar', [3]),
    });
    expect(ast('ALTER TABLE t ALTER COLUMN a DROP NOT NULL')).to.deep.equal({
      kind: 'DropNotNullConstraint',
      tableExists: false,
      table: name('t'),
      column: id('a'),
    });
    expect(ast('ALTER TABLE t SET PROPERTIES x = 1')).to.deep.include({ kind: 'SetProperties', target: 'TABLE' });
    expect(ast("ALTER TABLE t EXECUTE optimize(file_size_threshold => '10MB') WHERE a > 1")).to.deep.include({
      kind: 'TableExecute',
      procedure: id('optimize'),
      arguments: [{ kind: 'NamedArgument', name: id('file_size_threshold'), value: str('10MB') }],
    });
    expect(ast('ALTER TABLE t EXECUTE expire_snapshots')).to.deep.include({ arguments: [] });
    expect(ast('ALTER TABLE t SET AUTHORIZATION ROLE r')).to.deep.equal({
      kind: 'SetAuthorization',
      entityKind: 'TABLE',
      name: name('t'),
      principal: principal('r', 'ROLE'),
    });
    expect(ast('ALTER SCHEMA s SET AUTHORIZATION USER u')).to.deep.include({ entityKind: 'SCHEMA', principal: principal('u', 'USER') });
    expect(ast('ALTER widget w SET AUTHORIZATION u')).to.deep.include({ entityKind: 'WIDGET', principal: principal('u') });
    expect(ast('ALTER SCHEMA a.b RENAME TO c')).to.deep.equal({ kind: 'RenameSchema', source: name('a', 'b'), target: id('c') });
    expect(statement('ALTER TABLE t\nADD COLUMN c int', 'AddColumn').column.location).to.deep.equal(at(2, 12));
  });

  it('reads TRUNCATE, COMMENT, ANALYZE, CALL, SHOW STATS and SHOW CREATE', () => {
    expect(ast('TRUNCATE TABLE a.b')).to.deep.equal({ kind: 'TruncateTable', table: name('a', 'b') });
    expect(ast("COMMENT ON TABLE t IS 'x'")).to.deep.equal({ kind: 'Comment', target: 'TABLE', name: name('t'), comment: 'x' });
    expect(ast('COMMENT ON COLUMN t.c IS NULL')).to.deep.equal({ kind: 'Comment', target: 'COLUMN', name: name('t', 'c'), comment: null });
    expect(ast('ANALYZE t WITH (columns = 1)')).to.deep.equal({
      kind: 'Analyze',
      table: name('t'),
      properties: [{ kind: 'Property', name: id('columns'), value: int(1) }],
    });
    expect(ast("CALL system.flush(schema => 's', 2)")).to.deep.equal({
      kind: 'Call',
      name: name('system', 'flush'),
      arguments: [{ kind: 'NamedArgument', name: id('schema'), value: str('s') }, int(2)],
    });
    expect(ast('SHOW STATS FOR t')).to.deep.equal({ kind: 'ShowStats', target: name('t') });
    expect((ast('SHOW STATS FOR (SELECT 1)') as { target: { kind: string } }).target.kind).to.equal('Query');
    for (const target of ['SCHEMA', 'VIEW', 'MATERIALIZED VIEW', 'FUNCTION']) {
      expect(ast(`SHOW CREATE ${target} a.b`)).to.deep.equal({ kind: 'ShowCreate', target, name: name('a', 'b') });
    }
    expect(ast("SHOW FUNCTIONS FROM system.builtin LIKE 'a%'")).to.deep.equal({
      kind: 'ShowFunctions',
      schema: name('system', 'builtin'),
      like: 'a%',
    });
  });

  it('reads catalogs, branches, and the CREATE TABLE forms the engine does not run', () => {
    expect(ast("CREATE CATALOG IF NOT EXISTS c USING memory COMMENT 'x' AUTHORIZATION ROLE r WITH (k = 'v')")).to.deep.equal({
      kind: 'CreateCatalog',
      name: id('c'),
      notExists: true,
      connector: id('memory'),
      comment: 'x',
      authorization: principal('r', 'ROLE'),
      properties: [{ kind: 'Property', name: id('k'), value: str('v') }],
    });
    expect(ast('DROP CATALOG IF EXISTS c CASCADE')).to.deep.equal({ kind: 'DropCatalog', name: id('c'), exists: true, cascade: true });
    expect(ast('CREATE OR REPLACE BRANCH IF NOT EXISTS b IN TABLE t FROM main')).to.deep.equal({
      kind: 'CreateBranch',
      replace: true,
      notExists: true,
      name: id('b'),
      properties: [],
      table: name('t'),
      from: id('main'),
    });
    expect(ast('DROP BRANCH b IN TABLE t')).to.deep.equal({ kind: 'DropBranch', exists: false, name: id('b'), table: name('t') });
    expect(ast('ALTER BRANCH b IN TABLE t FAST FORWARD TO main')).to.deep.equal({
      kind: 'FastForwardBranch',
      source: id('b'),
      table: name('t'),
      target: id('main'),
    });
    expect(ast('SHOW BRANCHES IN TABLE t')).to.deep.equal({ kind: 'ShowBranches', table: name('t') });
    expect(ast('INSERT INTO t @ b VALUES 1')).to.deep.include({ branch: id('b') });
    expect(ast('DELETE FROM t @ b')).to.deep.equal({ kind: 'Delete', table: name('t'), branch: id('b') });
    expect(ast('CREATE SCHEMA s AUTHORIZATION USER u')).to.deep.include({ authorization: principal('u', 'USER') });
    const table = statement(
      'CREATE OR REPLACE TABLE t (a int DEFAULT 1 NOT NULL WITH (p = 2), LIKE u EXCLUDING PROPERTIES)',
      'CreateTable',
    );
    expect(stripLocations(table)).to.deep.include({
      replace: true,
      likeClauses: [{ kind: 'LikeClause', table: name('u'), properties: 'EXCLUDING' }],
    });
    expect(stripLocations(table.columns[0])).to.deep.equal({
      kind: 'ColumnDefinition',
      name: id('a'),
      type: type('integer'),
      defaultValue: int(1),
      nullable: false,
      properties: [{ kind: 'Property', name: id('p'), value: int(2) }],
    });
    expect(table.likeClauses?.[0].location).to.deep.equal(at(1, 67));
    expect(ast('CREATE OR REPLACE TABLE t AS SELECT 1')).to.deep.include({ kind: 'CreateTableAsSelect', replace: true });
  });

  it('reads roles, grants and privileges', () => {
    expect(ast('CREATE ROLE r WITH ADMIN CURRENT_USER IN c')).to.deep.equal({
      kind: 'CreateRole',
      name: id('r'),
      grantor: { kind: 'CurrentGrantor', which: 'CURRENT_USER' },
      catalog: id('c'),
    });
    expect(ast('DROP ROLE IF EXISTS r')).to.deep.equal({ kind: 'DropRole', exists: true, name: id('r') });
    expect(ast('GRANT r1, r2 TO USER a, b WITH ADMIN OPTION GRANTED BY ROLE x IN c')).to.deep.equal({
      kind: 'GrantRoles',
      roles: [id('r1'), id('r2')],
      grantees: [principal('a', 'USER'), principal('b')],
      adminOption: true,
      grantor: principal('x', 'ROLE'),
      catalog: id('c'),
    });
    expect(ast('GRANT SELECT, CREATE BRANCH, my_priv ON TABLE t TO alice WITH GRANT OPTION')).to.deep.equal({
      kind: 'GrantPrivileges',
      privileges: ['SELECT', 'CREATE BRANCH', 'MY_PRIV'],
      object: { kind: 'GrantObject', entityKind: 'TABLE', name: name('t') },
      grantee: principal('alice'),
      grantOption: true,
    });
    expect(ast('GRANT ALL PRIVILEGES ON t TO ROLE r')).to.deep.include({
      privileges: 'ALL',
      object: { kind: 'GrantObject', name: name('t') },
    });
    expect(ast('GRANT SELECT ON BRANCH b IN SCHEMA s TO u')).to.deep.include({
      object: { kind: 'GrantObject', branch: id('b'), entityKind: 'SCHEMA', name: name('s') },
    });
    expect(ast('REVOKE ADMIN OPTION FOR r FROM a')).to.deep.equal({
      kind: 'RevokeRoles',
      adminOptionFor: true,
      roles: [id('r')],
      grantees: [principal('a')],
    });
    expect(ast('REVOKE GRANT OPTION FOR INSERT ON t FROM a')).to.deep.equal({
      kind: 'RevokePrivileges',
      grantOptionFor: true,
      privileges: ['INSERT'],
      object: { kind: 'GrantObject', name: name('t') },
      grantee: principal('a'),
    });
    expect(ast('DENY DELETE ON SCHEMA s TO u')).to.deep.include({ kind: 'Deny', privileges: ['DELETE'] });
    expect(ast('SET ROLE ALL')).to.deep.equal({ kind: 'SetRole', role: 'ALL' });
    expect(ast('SET ROLE r IN c')).to.deep.equal({ kind: 'SetRole', role: id('r'), catalog: id('c') });
    expect(ast('SHOW GRANTS ON TABLE t')).to.deep.equal({
      kind: 'ShowGrants',
      object: { kind: 'GrantObject', entityKind: 'TABLE', name: name('t') },
    });
    expect(ast('SHOW CURRENT ROLES FROM c')).to.deep.equal({ kind: 'ShowRoles', current: true, catalog: id('c') });
    expect(ast('SHOW ROLE GRANTS')).to.deep.equal({ kind: 'ShowRoleGrants' });
    expect(syntaxError('GRANT ALL PRIVILEGES TO u').message).to.match(/^line 1:22: mismatched input 'TO'\. Expecting: 'ON'/);
  });

  it('reads session authorization, transactions, SET PATH, SET TIME ZONE and EXECUTE IMMEDIATE', () => {
    expect(ast("SET SESSION AUTHORIZATION 'bob'")).to.deep.equal({ kind: 'SetSessionAuthorization', user: str('bob') });
    expect(ast('SET SESSION AUTHORIZATION bob')).to.deep.equal({ kind: 'SetSessionAuthorization', user: id('bob') });
    expect(ast('SET SESSION authorization = 1')).to.deep.include({ kind: 'SetSession', name: name('authorization') });
    expect(ast('RESET SESSION AUTHORIZATION')).to.deep.equal({ kind: 'ResetSessionAuthorization' });
    expect(ast('START TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY')).to.deep.equal({
      kind: 'StartTransaction',
      modes: [
        { kind: 'IsolationLevel', level: 'REPEATABLE READ' },
        { kind: 'AccessMode', readOnly: true },
      ],
    });
    expect(ast('COMMIT WORK')).to.deep.equal({ kind: 'Commit' });
    expect(ast('ROLLBACK')).to.deep.equal({ kind: 'Rollback' });
    expect(ast('SET PATH a.b, c')).to.deep.equal({
      kind: 'SetPath',
      path: [
        { kind: 'PathElement', catalog: id('a'), schema: id('b') },
        { kind: 'PathElement', schema: id('c') },
      ],
    });
    expect(ast('SET TIME ZONE LOCAL')).to.deep.equal({ kind: 'SetTimeZone' });
    expect(ast("SET TIME ZONE 'UTC'")).to.deep.equal({ kind: 'SetTimeZone', value: str('UTC') });
    expect(ast("EXECUTE IMMEDIATE 'SELECT ?' USING 1")).to.deep.equal({
      kind: 'ExecuteImmediate',
      statement: str('SELECT ?'),
      parameters: [int(1)],
    });
    expect(ast('EXECUTE immediate USING 1')).to.deep.include({ kind: 'Execute', name: id('immediate') });
    expect(
      (ast('DESCRIBE OUTPUT (WITH FUNCTION f() RETURNS int RETURN 1 SELECT f())') as { query: { functions: unknown[] } }).query.functions,
    ).to.have.length(1);
  });

  it('reads CREATE FUNCTION with every characteristic and control statement, DROP FUNCTION, and WITH FUNCTION', () => {
    const create = statement(
      "CREATE OR REPLACE FUNCTION m.f(x integer, bigint) RETURNS bigint LANGUAGE SQL NOT DETERMINISTIC CALLED ON NULL INPUT SECURITY DEFINER COMMENT 'c' RETURN x + 1",
      'CreateFunction',
    );
    expect(create.replace).to.equal(true);
    const spec = stripLocations(create.specification);
    expect(spec.declaration).to.deep.equal({
      kind: 'FunctionDeclaration',
      name: name('m', 'f'),
      parameters: [
        { kind: 'ParameterDeclaration', name: id('x'), type: type('integer') },
        { kind: 'ParameterDeclaration', type: type('bigint') },
      ],
    });
    expect(spec.characteristics.map((c) => c.kind)).to.deep.equal(['Language', 'Deterministic', 'NullInput', 'Security', 'RoutineComment']);
    expect(spec.body).to.deep.equal({
      kind: 'ReturnStatement',
      value: { kind: 'ArithmeticBinary', operator: '+', left: id('x'), right: int(1) },
    });
    const body = statement(
      'CREATE FUNCTION f() RETURNS int BEGIN DECLARE a, b int DEFAULT 0; IF a > 0 THEN SET a = 1; ELSEIF a < 0 THEN LEAVE l; ELSE RETURN 0; END IF; l: WHILE a < 3 DO ITERATE l; END WHILE; REPEAT SET a = a + 1; UNTIL a > 5 END REPEAT; LOOP RETURN 1; END LOOP; CASE a WHEN 1 THEN RETURN 2; END CASE; RETURN a; END',
      'CreateFunction',
    ).specification.body;
    if (body.kind !== 'CompoundStatement') throw new Error(body.kind);
    expect(stripLocations(body.variables)).to.deep.equal([
      { kind: 'VariableDeclaration', names: [id('a'), id('b')], type: type('integer'), defaultValue: int(0) },
    ]);
    expect(body.statements.map((s) => s.kind)).to.deep.equal([
      'IfStatement',
      'WhileStatement',
      'RepeatStatement',
      'LoopStatement',
      'CaseStatement',
      'ReturnStatement',
    ]);
    expect(stripLocations(body.statements[1])).to.deep.include({ label: id('l') });
    expect(body.statements[1].location).to.deep.equal(at(1, 142));
    const python = statement(
      "CREATE FUNCTION p(x int) RETURNS int LANGUAGE PYTHON WITH (handler = 'h') AS $$\ndef h(x):\n  return x\n$$",
      'CreateFunction',
    );
    expect(stripLocations(python.specification.body)).to.deep.equal({ kind: 'FunctionDefinition', text: '\ndef h(x):\n  return x\n' });
    expect(ast('DROP FUNCTION IF EXISTS f(int)')).to.deep.equal({
      kind: 'DropFunction',
      exists: true,
      declaration: { kind: 'FunctionDeclaration', name: name('f'), parameters: [{ kind: 'ParameterDeclaration', type: type('integer') }] },
    });
    const inline = statement('WITH FUNCTION d(x int) RETURNS int RETURN x * 2 SELECT d(1)', 'QueryStatement');
    expect(inline.query.functions?.map((f) => f.declaration.name.parts[0].value)).to.deep.equal(['d']);
    expect(inline.query.functions?.[0].location).to.deep.equal(at(1, 6));
    // `WITH function AS (...)` is a WITH query named function.
    expect(statement('WITH function AS (SELECT 1) SELECT * FROM function', 'QueryStatement').query.with?.queries[0].name.value).to.equal(
      'function',
    );
  });

  it('reads WITH SESSION before a query (and a WITH query named session)', () => {
    const s = statement("WITH SESSION a.b = 1, c = 'x' SELECT 1", 'QueryStatement');
    expect(stripLocations(s.session)).to.deep.equal({
      kind: 'WithSession',
      properties: [
        { kind: 'SessionProperty', name: name('a', 'b'), value: int(1) },
        { kind: 'SessionProperty', name: name('c'), value: str('x') },
      ],
    });
    expect(s.session?.location).to.deep.equal(at(1, 1));
    expect(statement('WITH session AS (SELECT 1) SELECT * FROM session', 'QueryStatement').session).to.equal(undefined);
  });

  it('reads the new statements after EXPLAIN and keeps PREPARE text', () => {
    const explain = statement('EXPLAIN UPDATE t SET a = 1', 'Explain');
    expect(explain.statement.kind).to.equal('Update');
    expect(explain.statement.location).to.deep.equal(at(1, 9));
    const prepare = statement('PREPARE p FROM MERGE INTO t USING s ON true WHEN MATCHED THEN DELETE', 'Prepare');
    expect(prepare.statement.kind).to.equal('Merge');
  });

  it('names what may follow where a statement is wrong', () => {
    expect(syntaxError('CREATE THING x').message).to.equal(
      "line 1:8: mismatched input 'THING'. Expecting: 'BRANCH', 'CATALOG', 'FUNCTION', 'INDEX', 'MATERIALIZED', 'OR', 'ROLE', 'SCHEMA', 'TABLE', 'UNIQUE', 'VIEW'",
    );
    expect(syntaxError('DROP THING x').message).to.match(
      /^line 1:6: mismatched input 'THING'\. Expecting: 'BRANCH', 'CATALOG', 'FUNCTION', 'MATERIALIZED', 'ROLE', 'SCHEMA', 'TABLE', 'VIEW'$/,
    );
    expect(syntaxError('UPDATE t a = 1').message).to.match(
      /^line 1:10: mismatched input 'a'\. Expecting: '@', 'SET'$|^line 1:10: mismatched input 'a'\. Expecting: /,
    );
  });

  it('round-trips every statement form', () => {
    const statements = [
      "CREATE CATALOG IF NOT EXISTS c USING memory COMMENT 'x' AUTHORIZATION USER alice WITH (a = 1)",
      'DROP CATALOG c RESTRICT',
      "CREATE SCHEMA s AUTHORIZATION ROLE admin WITH (location = 'x')",
      'ALTER SCHEMA a.b RENAME TO c',
      "CREATE OR REPLACE TABLE t (a integer DEFAULT 1 NOT NULL COMMENT 'c' WITH (p = 2), LIKE u INCLUDING PROPERTIES, b varchar) COMMENT 'tt' WITH (x = DEFAULT)",
      'CREATE OR REPLACE TABLE IF NOT EXISTS t AS (SELECT 1 AS a) WITH NO DATA',
      'CREATE TABLE t AS WITH FUNCTION f() RETURNS int RETURN 1 SELECT f()',
      'INSERT INTO t @ b1 (a, b) VALUES (1, 2)',
      'DELETE FROM t @ b1 WHERE a = 1',
      'TRUNCATE TABLE a.b.c',
      "COMMENT ON VIEW v IS 'hello'",
      'ALTER TABLE IF EXISTS t RENAME TO u',
      "ALTER TABLE t ADD COLUMN IF NOT EXISTS c bigint NOT NULL COMMENT 'x' FIRST",
      'ALTER TABLE t ADD COLUMN r.f bigint AFTER b',
      'ALTER TABLE IF EXISTS t RENAME COLUMN IF EXISTS a.b TO c',
      'ALTER TABLE t DROP COLUMN IF EXISTS a.b',
      'ALTER TABLE t ALTER COLUMN a SET DEFAULT 5',
      'ALTER TABLE t ALTER COLUMN a DROP DEFAULT',
      'ALTER TABLE t ALTER COLUMN a.b SET DATA TYPE row(x integer, y varchar(3))',
      'ALTER TABLE t ALTER COLUMN a DROP NOT NULL',
      'ALTER TABLE t SET PROPERTIES a = 1, b = DEFAULT',
      "ALTER TABLE t EXECUTE optimize(file_size_threshold => '10MB') WHERE a > 1",
      'ALTER MATERIALIZED VIEW mv SET AUTHORIZATION u',
      "ANALYZE t WITH (partitions = ARRAY[ARRAY['1992-01-01']])",
      "CREATE OR REPLACE MATERIALIZED VIEW IF NOT EXISTS mv GRACE PERIOD INTERVAL '1' HOUR WHEN STALE INLINE COMMENT 'c' WITH (a = 1) AS SELECT * FROM t",
      "CREATE OR REPLACE VIEW v COMMENT 'c' SECURITY INVOKER WITH (a = 1) AS SELECT 1",
      'REFRESH MATERIALIZED VIEW mv',
      'ALTER MATERIALIZED VIEW IF EXISTS mv RENAME TO mv2',
      'DROP VIEW IF EXISTS v',
      'ALTER VIEW v REFRESH',
      "CALL system.sync(schema_name => 's', 'x', 1 + 2)",
      "CREATE OR REPLACE FUNCTION f(x integer, bigint) RETURNS bigint LANGUAGE SQL NOT DETERMINISTIC RETURNS NULL ON NULL INPUT SECURITY INVOKER COMMENT 'c' WITH (a = 1) RETURN x + 1",
      'CREATE FUNCTION f() RETURNS int BEGIN DECLARE a, b int DEFAULT 0; SET a = 1; IF a > 1 THEN RETURN 1; ELSEIF a < 0 THEN RETURN 2; ELSE RETURN 3; END IF; CASE a WHEN 1 THEN RETURN 1; ELSE RETURN 0; END CASE; lbl: WHILE a < 10 DO SET a = a + 1; ITERATE lbl; END WHILE; REPEAT SET a = a - 1; UNTIL a < 0 END REPEAT; l2: LOOP LEAVE l2; END LOOP; RETURN a; END',
      "CREATE FUNCTION py(x int) RETURNS int LANGUAGE PYTHON WITH (handler = 'f') AS $$ def f(x): return x $$",
      'DROP FUNCTION IF EXISTS f(integer, varchar)',
      'CREATE OR REPLACE BRANCH IF NOT EXISTS b WITH (a = 1) IN TABLE t FROM main',
      'DROP BRANCH IF EXISTS b IN TABLE t',
      'ALTER BRANCH b IN TABLE t FAST FORWARD TO main',
      'SHOW BRANCHES FROM TABLE t',
      'CREATE ROLE r WITH ADMIN CURRENT_USER IN c',
      'DROP ROLE IF EXISTS r IN c',
      'GRANT r1, r2 TO USER a, ROLE b WITH ADMIN OPTION GRANTED BY CURRENT_ROLE IN c',
      'GRANT SELECT, INSERT, CREATE BRANCH ON TABLE t TO alice WITH GRANT OPTION',
      'GRANT SELECT ON BRANCH b IN TABLE t TO alice',
      'REVOKE ADMIN OPTION FOR r FROM a, b GRANTED BY x IN c',
      'REVOKE GRANT OPTION FOR SELECT ON t FROM alice',
      'DENY ALL PRIVILEGES ON SCHEMA s TO bob',
      'SET ROLE NONE IN c',
      'SHOW GRANTS ON t',
      'SHOW CURRENT ROLES FROM c',
      'SHOW ROLE GRANTS FROM c',
      'SHOW CREATE MATERIALIZED VIEW mv',
      'SHOW STATS FOR (SELECT * FROM t WHERE a > 1)',
      "SHOW FUNCTIONS FROM system.builtin LIKE 'a%'",
      "SET SESSION AUTHORIZATION 'alice'",
      'RESET SESSION AUTHORIZATION',
      'START TRANSACTION ISOLATION LEVEL SERIALIZABLE, READ WRITE',
      'COMMIT',
      'ROLLBACK',
      "EXECUTE IMMEDIATE 'SELECT ?' USING 1",
      'DESCRIBE OUTPUT (SELECT 1 AS x)',
      'SET PATH a.b, c',
      'SET TIME ZONE LOCAL',
      "SET TIME ZONE INTERVAL '10' HOUR",
      'UPDATE t @ b SET a = 1, b = 2 WHERE c > 1',
      'MERGE INTO t @ br AS x USING s ON x.a = s.a WHEN MATCHED AND s.b > 1 THEN UPDATE SET b = s.b WHEN MATCHED THEN DELETE WHEN NOT MATCHED AND s.a > 0 THEN INSERT (a, b) VALUES (s.a, s.b)',
      "WITH SESSION a = 1, b.c = 'x' SELECT 1",
      'WITH SESSION a = 1 WITH FUNCTION f() RETURNS int RETURN 1 WITH t AS (SELECT 1) SELECT f() FROM t',
      'EXPLAIN (TYPE DISTRIBUTED) MERGE INTO t USING u ON true WHEN MATCHED THEN DELETE',
    ];
    for (const sql of statements) expectStatementRoundTrip(sql);
  });
});
