import { escapeLiteral } from 'pg';
import { DataSource } from 'typeorm';

/** A node of a plan from `EXPLAIN (ANALYZE, FORMAT JSON)`. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** Every node of a plan that reads a table, with the rows it read (kept and filtered out, × loops). */
export function tableReads(node: PlanNode, table: string): Array<{ node: string; rows: number }> {
  const read =
    node['Relation Name'] === table
      ? [
          {
            node: node['Node Type'],
            rows:
              (node['Actual Rows'] +
                (node['Rows Removed by Filter'] ?? 0) +
                (node['Rows Removed by Index Recheck'] ?? 0)) *
              node['Actual Loops'],
          },
        ]
      : [];
  return [...read, ...(node.Plans ?? []).flatMap((child) => tableReads(child, table))];
}

/** A parameter as Postgres's text input of it: an array literal (`{"a",NULL}`) or a number. */
function textOf(value: unknown): string {
  if (!Array.isArray(value)) return String(value);
  const element = (item: unknown) => (item === null ? 'NULL' : `"${String(item).replace(/[\\"]/g, '\\$&')}"`);
  return `{${value.map(element).join(',')}}`;
}

export interface PreparedStatement {
  sql: string;
  /** The parameters' types, as PREPARE takes them (`uuid[], int`). */
  types: string;
  parameters: unknown[];
}

/**
 * The executed plan of a statement as the apps run it, a prepared statement, with the custom plan of its first
 * executions or the generic one Postgres may switch to after them. Whatever it writes is rolled back.
 */
export async function preparedPlan(
  dataSource: DataSource,
  { sql, types, parameters }: PreparedStatement,
  mode: 'force_custom_plan' | 'force_generic_plan',
): Promise<PlanNode> {
  const runner = dataSource.createQueryRunner();
  await runner.startTransaction();
  try {
    await runner.query(`SET LOCAL plan_cache_mode = ${mode}`);
    await runner.query(`PREPARE explained (${types}) AS ${sql}`);
    // EXECUTE takes no bind parameters: the values as literals.
    const literals = parameters.map((value) => escapeLiteral(textOf(value))).join(', ');
    const [{ 'QUERY PLAN': plan }] = await runner.query(
      `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE explained (${literals})`,
    );
    return (plan as Array<{ Plan: PlanNode }>)[0].Plan;
  } finally {
    await runner.rollbackTransaction();
    await runner.query('DEALLOCATE explained');
    await runner.release();
  }
}
