// Runs one SQL statement: parse, then either plan + optimize + execute a query, or carry out a
// metadata, session or DDL statement. Query pages stream lazily to the caller.

import { timePlanning } from './planning-time.js';
import type { CatalogManager } from '../connectors/catalog-manager.js';
import type { ColumnMetadata } from '../spi/connector.js';
import { EngineError, isStackOverflow, nestedTooDeeplyToProcess } from '../errors/engine-error.js';
import { evaluateConstant, expressionEvaluator } from '../exec/expression/index.js';
import { LocalExecutionPlanner, type ExecutionEnvironment } from '../exec/local-execution-planner.js';
import type { MemoryContext } from '../exec/memory.js';
import { QueryMemoryUsage } from './query-memory.js';
import { OperatorRecorders } from '../exec/stats/operator-recorder.js';
import { addRuntimeStats } from '../exec/stats/runtime-stats.js';
import type { Page } from '../columnar/page.js';
import { analyzeQuery, type AnalyzedQuery } from '../sql/analyzer/analyzer.js';
import { StatementMetadata } from '../sql/metadata/statement-metadata.js';
import { countParameters } from '../sql/analyzer/ast-utils.js';
import { assertSupported } from '../sql/analyzer/unsupported-features.js';
import { translateExpression } from '../sql/analyzer/expression-translator.js';
import { Scope } from '../sql/analyzer/scope.js';
import type * as ast from '../sql/parser/ast.js';
import { parseStatement } from '../sql/parser/parser.js';
import { planQueryYielding } from '../sql/planner/plan-query.js';
import type { PlanNode, TableScanNode } from '../sql/planner/plan.js';
import { printPlan, type NodeRuntimeStats } from '../sql/planner/plan-printer.js';
import type { PlanFragment } from '../sql/planner/distributed/fragmenter.js';
import { printFragments } from '../sql/planner/distributed/fragment-printer.js';
import { physicalTreeOf } from '../exec/threads/physical-context.js';
import type { PhysicalPlanIndex } from '../sql/planner/physical/physical-plan-index.js';
import { queryPhysicalPlans } from './scheduler/fragment-physical-plans.js';
import { shareIdenticalStages, withSharedStages } from '../sql/planner/distributed/shared-stages.js';
import { commonSubplansAcrossFragments, type FragmentsWithCommonSubplans } from '../sql/planner/distributed/fragment-common-subplans.js';
import { materializeCommonTableExpressions } from '../sql/planner/physical/common-subplans.js';
import { DistributedQuery, type ClusterView } from './scheduler/distributed-query.js';
import { constant, symbolRef, type RowExpression } from '../sql/planner/row-expression.js';
import { isStoreAssignable } from '../types/coercion.js';
import { BIGINT, BOOLEAN, typesEqual } from '../types/types.js';
import type { Session } from '../spi/session.js';
import type { OutputColumn, StatementResult } from '../spi/statement-result.js';
import type { QueryExecutionContext } from './query-execution-context.js';
import { describeInput, describeOutput } from './statements/describe-statements.js';
import {
  createSchema,
  createTable,
  createTableAsSelect,
  createTableAsSelectWrite,
  deleteRows,
  dropSchema,
  dropTable,
  insert,
  insertWrite,
  truncateTable,
} from './statements/ddl-statements.js';
import { updateRows } from './statements/update-statement.js';
import { merge, type QueryRunner } from './statements/merge-statement.js';
import { executeTableProcedure } from './statements/table-execute.js';
import { setAuthorization, setColumnType } from './statements/refused-alterations.js';
import { alterTable, comment } from './statements/alter-table-statements.js';
import { createView, dropView, renameView, showCreateView } from './statements/view-statements.js';
import { createFunction, dropFunction, routineFunctionRows, showCreateFunction } from './statements/function-statements.js';
import { loadCatalogRoutines } from '../sql/routines/catalog-routines.js';
import { withRoutinesWhile } from '../sql/routines/routine-scope.js';
import type { WriteLayout, WriteStatement } from './statements/write-statement.js';
import type { WriteCommit } from '../exec/operators/table-finish.js';
import type { WriteHandle } from '../spi/table-write.js';
import { addTableWriter, type TableWriterSpec } from '../sql/planner/distributed/table-writer-placement.js';
import type { PlanFactory } from '../sql/planner/plan-factory.js';
import { getScalar } from '../columnar/page.js';
import { column, rowsResult, varcharColumns } from './statements/results.js';
import { explainRowChange } from './statements/explain-row-change.js';
import { sessionWith } from './statements/with-session.js';
import { deallocate, preparedSql, prepare, resetSession, setSession, use } from './statements/session-statements.js';
import { inSessionTimeZone, setTimeZone } from './statements/time-zone-statement.js';
import { castExpression } from '../sql/analyzer/time-zone-translation.js';
import { showStats } from './statements/show-stats.js';
import {
  showCatalogs,
  showColumns,
  showCreateTable,
  showFunctions,
  showSchemas,
  showSession,
  showTables,
} from './statements/show-statements.js';
import { noSessionChanges } from '../spi/session.js';
import { SessionPropertyManager } from './session-property-manager.js';
import { checkQuerySession, checkStatement } from '../security/access-control/statement-checks.js';
import { TransactionManager } from './transactions/transaction-manager.js';
import { checkInTransaction, endTransaction, startTransaction } from './statements/transaction-statements.js';

export interface StatementExecutorOptions {
  queryMaxMemoryBytes: number;
  nodeMemory: MemoryContext;
  /** On a coordinator: the nodes queries are distributed over. */
  cluster?: ClusterView;
  /** A single-node server: it never has other nodes, so each stage runs as one task here. */
  singleNode?: boolean;
  /** Validate each plan after every optimizer rule (tests); by default when ENGINE_VALIDATE_PLANS=1. */
  validatePlans?: boolean;
}

interface PlannedQuery {
  root: PlanNode;
  columns: OutputColumn[];
  /** When the query runs over the cluster: its fragments (the root is fragment 0). */
  fragments?: PlanFragment;
  /** On a single node: the common subplans its fragments share (fragment-common-subplans.ts; `fragments` is its root). */
  acrossFragments?: FragmentsWithCommonSubplans;
}

export class StatementExecutor {
  readonly sessionProperties: SessionPropertyManager;
  /** The clients' explicit transactions (START TRANSACTION). */
  readonly transactions = new TransactionManager();

  constructor(
    private readonly catalogs: CatalogManager,
    readonly options: StatementExecutorOptions,
  ) {
    // query_max_memory defaults to the cluster-wide limit; a worker (no cluster view) serves no statements.
    this.sessionProperties = new SessionPropertyManager(catalogs, {
      queryMaxMemoryBytes: options.cluster?.queryMaxMemoryBytes ?? options.queryMaxMemoryBytes,
    });
  }

  async execute(sql: string, session: Session, context: QueryExecutionContext): Promise<StatementResult> {
    try {
      const statement = parseStatement(sql);
      if (this.catalogs.accessControl !== undefined) checkQuerySession(this.catalogs.accessControl, session);
      const result = await this.executeWithRoutines(statement, inSessionTimeZone(session), context, []);
      const transaction = session.transaction?.id;
      return transaction === undefined
        ? result
        : { ...result, pages: failingTransaction(result.pages, () => this.transactions.fail(transaction)) };
    } catch (e) {
      // As in Trino, a statement failing in a transaction aborts it.
      if (session.transaction?.id !== undefined) this.transactions.fail(session.transaction.id);
      // The parser refuses input nested beyond its limit; a phase after it that still runs out of
      // stack ends the statement with a clean error, not a RangeError.
      if (isStackOverflow(e)) throw nestedTooDeeplyToProcess();
      throw e;
    }
  }

  /** executeStatement with the catalog routines the statement calls in sight of every analysis it makes (UPDATE's, MERGE's too). */
  private async executeWithRoutines(
    statement: ast.Statement,
    session: Session,
    context: QueryExecutionContext,
    parameters: readonly RowExpression[],
  ): Promise<StatementResult> {
    const own: Session = { ...session }; // the statement's own session object: the routines are found by it, and analyzed in it
    const routines = await loadCatalogRoutines(statement, this.catalogs, own);
    if (routines === undefined) return this.executeStatement(statement, session, context, parameters);
    return withRoutinesWhile(own, routines, () => this.executeStatement(statement, own, context, parameters));
  }

  private async executeStatement(
    statement: ast.Statement,
    session: Session,
    context: QueryExecutionContext,
    parameters: readonly RowExpression[],
  ): Promise<StatementResult> {
    const catalogs = this.catalogs;
    const metadata = new StatementMetadata(catalogs, session);
    assertSupported(statement);
    if (catalogs.accessControl !== undefined) checkStatement(catalogs.accessControl, statement, session);
    checkInTransaction(statement, session, this.transactions);
    const runQuery: QueryRunner = async (query) => {
      const planned = await timePlanning(context.progress, () => this.plan(query, session, parameters, undefined, this.distributes()));
      const pages: Page[] = [];
      for await (const page of this.run(planned, session, context)) pages.push(page);
      return { columns: planned.columns, pages };
    };
    switch (statement.kind) {
      case 'StartTransaction':
        return startTransaction(statement, session, this.transactions);
      case 'Commit':
      case 'Rollback':
        return endTransaction(statement, session, this.transactions);
      case 'QueryStatement': {
        if (statement.session) session = this.querySession(statement.session, session, context, parameters);
        const { planned, physical } = await timePlanning(context.progress, async () => {
          const planned = await this.plan(statement.query, session, parameters, undefined, this.distributes());
          const physical = this.physicalPlans(planned, session);
          context.progress.planText = planText(planned, physical);
          return { planned, physical };
        });
        return {
          columns: planned.columns,
          pages: this.run(planned, session, context, undefined, physical),
          sessionChanges: noSessionChanges(),
        };
      }
      case 'Explain':
        return this.explain(statement, session, context, parameters);
      case 'ShowCatalogs':
        return showCatalogs(statement, catalogs, session.user);
      case 'ShowSchemas':
        return showSchemas(statement, metadata);
      case 'ShowTables':
        return showTables(statement, metadata);
      case 'ShowColumns':
        return showColumns(statement, metadata);
      case 'ShowFunctions':
        return showFunctions(statement, session, await routineFunctionRows(statement, metadata));
      case 'ShowSession':
        return showSession(statement, session, this.sessionProperties);
      case 'ShowCreateTable':
        return showCreateTable(statement, metadata);
      case 'ShowStats':
        return showStats(statement, metadata);
      case 'Use':
        return use(statement, metadata);
      case 'SetSession':
        return setSession(statement, session, this.sessionProperties);
      case 'ResetSession':
        return resetSession(statement, this.sessionProperties);
      case 'SetTimeZone':
        return setTimeZone(statement, session);
      case 'Prepare':
        return prepare(statement);
      case 'Deallocate':
        return deallocate(statement, session);
      case 'Execute': {
        const prepared = parseStatement(preparedSql(session, statement.name));
        const values = statement.parameters.map((p) => {
          const e = translateExpression(p, { scope: new Scope([]), session, parameters: [] });
          return constant(evaluateConstant(e), e.type);
        });
        const expected = countParameters(prepared);
        if (values.length !== expected) {
          throw new EngineError(
            'INVALID_PARAMETER_USAGE',
            `Incorrect number of parameters: expected ${expected} but found ${values.length}`,
            statement.location,
          );
        }
        return this.executeWithRoutines(prepared, session, context, values);
      }
      case 'DescribeInput':
        return describeInput(statement, metadata);
      case 'DescribeOutput':
        return describeOutput(statement, metadata);
      case 'CreateSchema':
        return createSchema(statement, metadata, parameters);
      case 'DropSchema':
        return dropSchema(statement, metadata);
      case 'CreateTable':
        return createTable(statement, metadata, parameters);
      case 'CreateTableAsSelect':
        return createTableAsSelect(statement, metadata, parameters, (write) => this.runWrite(write, session, context, parameters));
      case 'Insert':
        return insert(statement, metadata, (write) => this.runWrite(write, session, context, parameters));
      case 'Delete':
        return deleteRows(statement, metadata, parameters, runQuery);
      case 'DropTable':
        return dropTable(statement, metadata);
      case 'Update':
        return updateRows(statement, metadata, parameters, runQuery);
      case 'Merge':
        return merge(statement, metadata, parameters, runQuery);
      case 'AddColumn':
      case 'DropColumn':
      case 'RenameColumn':
      case 'RenameTable':
      case 'SetProperties':
      case 'DropNotNullConstraint':
        return alterTable(statement, metadata, parameters);
      case 'Comment':
        return comment(statement, metadata);
      case 'TableExecute':
        return executeTableProcedure(statement, metadata, runQuery);
      case 'SetColumnType':
        return setColumnType(statement, metadata);
      case 'SetAuthorization':
        return setAuthorization(statement, metadata);
      case 'TruncateTable':
        return truncateTable(statement, metadata);
      case 'CreateView':
        return createView(statement, metadata, parameters, async (query) => (await this.analyze(query, session, parameters)).columns);
      case 'DropView':
        return dropView(statement, metadata);
      case 'ShowCreate':
        return statement.target === 'FUNCTION' ? showCreateFunction(statement, metadata) : showCreateView(statement, metadata);
      case 'CreateFunction':
        return createFunction(statement, metadata);
      case 'DropFunction':
        return dropFunction(statement, metadata);
      case 'RenameView':
        return renameView(statement, metadata);
    }
  }

  /**
   * Whether queries run as fragments in tasks: always on a coordinator or a single node (a single node
   * runs the same fragments as a cluster, its exchanges in process; a coordinator without a node to
   * take tasks makes its queries wait for one). Not on a worker, which plans no queries.
   */
  /** The session of a query with WITH SESSION (with-session.ts), handed to the query manager too, whose limits read it. */
  private querySession(
    clause: ast.WithSession,
    session: Session,
    context: QueryExecutionContext,
    parameters: readonly RowExpression[],
  ): Session {
    const querySession = inSessionTimeZone(sessionWith(clause, session, this.sessionProperties, parameters));
    context.onQuerySession?.(querySession);
    return querySession;
  }

  private distributes(): boolean {
    return this.options.cluster !== undefined;
  }

  /** How many nodes take the tasks of partitioned stages now (at least one: a query waits for one). */
  private nodesTakingTasks(): number {
    return Math.max(1, this.options.cluster?.workerNodes().length ?? 1);
  }

  /** Parses nothing: plans and optimizes an analyzed query (and fragments it, for the cluster). */
  private async plan(
    query: ast.Query,
    session: Session,
    parameters: readonly RowExpression[],
    coerceTo?: ColumnMetadata[],
    distributed = false,
  ): Promise<PlannedQuery> {
    const planned = await this.planAnalyzed(await this.analyze(query, session, parameters, coerceTo), distributed);
    return this.withCommonSubplansAcrossFragments(planned, session);
  }

  /**
   * On a single node, `planned` with the common subplans its fragments share run once
   * (materialize_common_table_expressions); on a cluster, with identical source stages run once (share_identical_stages).
   */
  private withCommonSubplansAcrossFragments(planned: PlannedQuery, session: Session): PlannedQuery {
    if (planned.fragments === undefined) return planned;
    if (this.options.singleNode !== true)
      return shareIdenticalStages(session) ? { ...planned, fragments: withSharedStages(planned.fragments) } : planned;
    if (!materializeCommonTableExpressions(session)) return planned;
    const acrossFragments = commonSubplansAcrossFragments(planned.fragments);
    return { ...planned, fragments: acrossFragments.root, acrossFragments };
  }

  /** The query's logical plan; with `coerceTo`, its columns cast to those types (an INSERT's). */
  private async analyze(
    query: ast.Query,
    session: Session,
    parameters: readonly RowExpression[],
    coerceTo?: ColumnMetadata[],
  ): Promise<AnalyzedQuery> {
    const metadata = new StatementMetadata(this.catalogs, session);
    const analyzed = await metadata.analyze(query, () => analyzeQuery(query, metadata, expressionEvaluator, parameters));
    if (!coerceTo || coerceTo.length !== analyzed.columns.length) return analyzed;
    const factory = analyzed.context.factory;
    const assignments = analyzed.root.outputs.map((s, i) => {
      const target = coerceTo[i].type;
      if (typesEqual(s.type, target) || !isStoreAssignable(s.type, target)) return { symbol: s, expression: symbolRef(s) };
      // An INSERT into a zoned column reads a plain timestamp in the session zone.
      const cast = { ...(castExpression(symbolRef(s), target, false, session) as RowExpression & { kind: 'cast' }), assignment: true };
      return { symbol: factory.newSymbol(s.name, target), expression: cast };
    });
    const root = factory.project(analyzed.root, assignments);
    return { ...analyzed, root, columns: analyzed.columns.map((c, i) => ({ name: c.name, type: assignments[i].symbol.type })) };
  }

  /**
   * Optimizes an analyzed query (and fragments it, for the cluster); with `write`, under the writers
   * of its rows and the commit (a write statement's plan, whose one column is the rows written).
   */
  private async planAnalyzed(analyzed: AnalyzedQuery, distributed: boolean, write?: PlannedWrite): Promise<PlannedQuery> {
    const { context } = analyzed;
    const root = write === undefined ? analyzed.root : inTableOrder(analyzed.root, write.layout, context.factory);
    const columns = write === undefined ? analyzed.columns : [{ name: 'rows', type: BIGINT }];
    const isRemoteScan = (scan: TableScanNode) => this.catalogs.get(scan.table.catalog)?.remotelyAccessible?.(scan.table) === true;
    const addWriter =
      write === undefined ? undefined : (plan: PlanNode) => addTableWriter(plan, writerSpec(plan, write, distributed), context.factory);
    const planned = await planQueryYielding(root, context, {
      distributed,
      isRemoteScan,
      addWriter,
      nodes: this.nodesTakingTasks(),
      singleNode: this.options.singleNode,
      validate: this.options.validatePlans,
    });
    return { ...planned, columns };
  }

  /**
   * A write statement: plans its query, begins the write, runs the plan (whose TableFinish commits)
   * and returns the rows written; a failure or cancel anywhere before the commit aborts the write.
   */
  private async runWrite(
    write: WriteStatement,
    session: Session,
    context: QueryExecutionContext,
    parameters: readonly RowExpression[],
  ): Promise<number> {
    const analyzed = await timePlanning(context.progress, () => this.analyze(write.query, session, parameters, write.coerceTo));
    const layout = write.layout(analyzed.columns);
    const begun = await write.begin(layout);
    // A cancel that arrives while the write commits waits for it: the commit is not cut short.
    const commitWrite: WriteCommit = (fragments) => (context.holdCancel ?? ((work) => work()))(() => begun.commit(fragments));
    try {
      if (!write.withData) {
        await commitWrite([]);
        return 0;
      }
      const { planned, physical } = await timePlanning(context.progress, async () => {
        const planned = await this.planAnalyzed(analyzed, this.distributes(), { layout, handle: begun.handle });
        const physical = this.physicalPlans(planned, session);
        context.progress.planText = planText(planned, physical);
        return { planned, physical };
      });
      let rows = 0;
      for await (const page of this.run(planned, session, { ...context, commitWrite }, undefined, physical)) {
        for (let row = 0; row < page.rowCount; row++) rows += Number(getScalar(page.columns[0], row));
      }
      return rows;
    } catch (e) {
      // The error that ended the write is the statement's, also when undoing it fails too.
      await begun.abort().catch(() => undefined);
      throw e;
    }
  }

  /** The plan EXPLAIN shows: a query's, or a write's (with its writers, but no write begun). */
  private async planExplained(
    inner: ast.Statement,
    write: WriteStatement | undefined,
    session: Session,
    parameters: readonly RowExpression[],
    distributed: boolean,
  ): Promise<PlannedQuery> {
    if (write === undefined) return this.plan((inner as ast.QueryStatement).query, session, parameters, undefined, distributed);
    const analyzed = await this.analyze(write.query, session, parameters, write.coerceTo);
    return await this.planAnalyzed(analyzed, distributed, { layout: write.layout(analyzed.columns), handle: null });
  }

  /** The query's physical plans, made here once: run as they are (on the workers too) and shown by EXPLAIN. */
  private physicalPlans(planned: PlannedQuery, session: Session): (fragment: PlanFragment) => PhysicalPlanIndex {
    return queryPhysicalPlans({ catalogs: this.catalogs, session }, planned, this.options.cluster);
  }

  /** `explain`: EXPLAIN ANALYZE's figures per plan node, which the tasks' operators add theirs to at the end. */
  private run(
    planned: PlannedQuery,
    session: Session,
    context: QueryExecutionContext & { commitWrite?: WriteCommit },
    explain?: Map<number, NodeRuntimeStats>,
    physical = this.physicalPlans(planned, session),
  ): AsyncIterable<Page> {
    const env: ExecutionEnvironment = {
      operator: { memory: context.memory, signal: context.signal, timeZone: session.timeZone },
      catalogs: this.catalogs,
      session,
      progress: context.progress,
      operators: context.operators,
      commitWrite: context.commitWrite,
    };
    const cluster = this.options.cluster;
    if (planned.fragments && cluster) {
      const memoryUsage = context.memoryUsage ?? new QueryMemoryUsage(context.memory);
      const distributed = new DistributedQuery(planned.fragments, session, cluster, this.catalogs, context.progress, memoryUsage, physical);
      context.onDistributed?.(distributed);
      return distributed.pages(env, explain);
    }
    return new LocalExecutionPlanner(env, physical(singleFragment(planned.root))).plan(planned.root);
  }

  private async explain(
    statement: ast.ExplainStatement,
    session: Session,
    context: QueryExecutionContext,
    parameters: readonly RowExpression[],
  ): Promise<StatementResult> {
    const inner = statement.statement;
    if (inner.kind === 'QueryStatement' && inner.session) session = this.querySession(inner.session, session, context, parameters);
    const metadata = new StatementMetadata(this.catalogs, session);
    const write =
      inner.kind === 'CreateTableAsSelect'
        ? await createTableAsSelectWrite(inner, metadata, parameters)
        : inner.kind === 'Insert'
          ? await insertWrite(inner, metadata)
          : undefined;
    const rowChange =
      inner.kind === 'Delete' || inner.kind === 'Update' ? await explainRowChange(statement, inner, metadata, parameters) : undefined;
    if (rowChange !== undefined) return rowChange;
    if (inner.kind !== 'QueryStatement' && write === undefined) {
      throw new EngineError(
        'NOT_SUPPORTED',
        `EXPLAIN is only supported for queries, CREATE TABLE AS and INSERT, not ${inner.kind}`,
        inner.location,
      );
    }
    if (write !== undefined && statement.analyze)
      throw new EngineError(
        'NOT_SUPPORTED',
        `EXPLAIN ANALYZE of ${inner.kind === 'Insert' ? 'INSERT' : 'CREATE TABLE AS'} is not supported`,
        statement.location,
      );
    // The plan as it runs now: its fragments over the cluster, or on a single node the one fragment it is.
    const fragmented = statement.type !== 'LOGICAL' && statement.type !== 'VALIDATE' && this.distributes();
    const planned = await this.planExplained(inner, write, session, parameters, fragmented);
    const names = planned.columns.map((c) => c.name);
    if (statement.type === 'VALIDATE') return rowsResult([column('Valid', BOOLEAN)], [[true]]);
    if (statement.type === 'IO') throw new EngineError('NOT_SUPPORTED', 'EXPLAIN (TYPE IO) is not supported', statement.location);
    if (statement.format && statement.format !== 'TEXT')
      throw new EngineError('NOT_SUPPORTED', `EXPLAIN format ${statement.format} is not supported`, statement.location);
    if (statement.analyze) {
      const stats = new Map<number, NodeRuntimeStats>();
      const operators = context.operators ?? new OperatorRecorders(context.memory, context.progress);
      const started = performance.now();
      let rows = 0;
      const physical = this.physicalPlans(planned, session);
      for await (const page of this.run(planned, session, { ...context, operators }, stats, physical)) rows += page.rowCount;
      for (const operator of operators.all()) addRuntimeStats(stats, operator.figures);
      const elapsed = performance.now() - started;
      const header = `Query processed ${rows} rows in ${elapsed.toFixed(2)}ms; splits: ${context.progress.completedSplits}, input: ${context.progress.processedRows} rows\n`;
      return rowsResult(varcharColumns('Query Plan'), [[header + planText(planned, physical, stats)]]);
    }
    const text = statement.type === 'LOGICAL' ? printPlan(planned.root, names) : planText(planned, this.physicalPlans(planned, session));
    return rowsResult(varcharColumns('Query Plan'), [[text]]);
  }
}

/** A write's layout and handle, for its plan (a null handle: only shown, by EXPLAIN). */
interface PlannedWrite {
  layout: WriteLayout;
  handle: WriteHandle | null;
}

/** The query's rows in the table's column order, NULL for the columns it does not write. */
function inTableOrder(root: PlanNode, layout: WriteLayout, factory: PlanFactory): PlanNode {
  const { sources, table } = layout;
  if (sources.length === root.outputs.length && sources.every((source, i) => source === i)) return root;
  const assignments = sources.map((source, i) => {
    if (source >= 0) return { symbol: root.outputs[source], expression: symbolRef(root.outputs[source]) };
    const type = table.columns[i].type;
    return { symbol: factory.newSymbol(table.columns[i].name, type), expression: layout.omitted?.[i] ?? constant(null, type) };
  });
  return factory.project(root, assignments);
}

/** What the writers of `root`'s rows write, and where they run. */
function writerSpec(root: PlanNode, write: PlannedWrite, distributed: boolean): TableWriterSpec {
  const { layout } = write;
  const { table } = layout;
  const names = table.columns.map((c) => c.name);
  return {
    target: { catalog: table.catalog, schema: table.schema, table: table.name, kind: layout.kind, handle: write.handle },
    columnNames: names,
    columns: root.outputs,
    notNull: table.columns.filter((c) => c.nullable === false).map((c) => c.name),
    writesAnywhere: distributed && layout.writesAnywhere,
    partitionBy: layout.partitionColumns.map((name) => root.outputs[names.indexOf(name)]).filter((s) => s !== undefined),
  };
}

/** The plan as EXPLAIN prints it: the fragments (on a single node the one it is) with their physical plans, and EXPLAIN ANALYZE's `stats`. */
function planText(
  planned: PlannedQuery,
  physical: (fragment: PlanFragment) => PhysicalPlanIndex,
  stats?: ReadonlyMap<number, NodeRuntimeStats>,
): string {
  const names = planned.columns.map((c) => c.name);
  return printFragments(planned.fragments ?? singleFragment(planned.root), names, stats, physicalTreeOf(stats, physical));
}

/** A plan that runs whole on this node, as the one fragment it is. */
function singleFragment(root: PlanNode): PlanFragment {
  return { id: 0, root, partitioning: 'SINGLE', output: { type: 'GATHER', partitionKeys: [] }, partitionedScans: [], children: [] };
}

/** The pages of a statement in a transaction: an error while they stream aborts the transaction too. */
async function* failingTransaction(pages: AsyncIterable<Page>, fail: () => void): AsyncIterable<Page> {
  try {
    yield* pages;
  } catch (e) {
    fail();
    throw e;
  }
}
