/**
 * SQLite only: in a query with a join, a text parameter compared with a column is written
 * `CAST(? AS text)`. The SQLite that better-sqlite3 builds (3.54, with STAT4) re-prepares a join on
 * every run when a bare parameter is compared in it (`perf`: sqlite3_step → sqlite3Reprepare, the
 * parser and planner each time): a two-table join by primary keys took 26 µs a run against 3.9 µs
 * with the cast, a phone's token check 86 against 11 µs (docs/PERFORMANCE.md, issue 26's "Session
 * 43"). Same rows either way: a string compared with a column takes the column's affinity, cast or
 * not. Numbers stay bare; a bound 0 or 1 re-prepares a join too, so a join that compares a flag
 * writes it as a literal (scores.ts).
 */
import {
  BinaryOperationNode,
  type KyselyPlugin,
  OperationNodeTransformer,
  OperatorNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  RawNode,
  ReferenceNode,
  type RootOperationNode,
  SelectQueryNode,
  type UnknownRow,
  ValueNode,
} from 'kysely';

const COMPARISONS = new Set(['=', '!=', '<>', '<', '<=', '>', '>=']);

class CastTextParameters extends OperationNodeTransformer {
  protected override transformBinaryOperation(node: BinaryOperationNode): BinaryOperationNode {
    const out = super.transformBinaryOperation(node);
    const { leftOperand, operator, rightOperand } = out;
    const castable =
      ReferenceNode.is(leftOperand) &&
      OperatorNode.is(operator) &&
      COMPARISONS.has(operator.operator) &&
      ValueNode.is(rightOperand) &&
      !rightOperand.immediate &&
      typeof rightOperand.value === 'string';
    return castable ? BinaryOperationNode.create(leftOperand, operator, RawNode.create(['cast(', ' as text)'], [rightOperand])) : out;
  }
}

export class JoinParametersPlugin implements KyselyPlugin {
  private readonly transformer = new CastTextParameters();

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    // Queries without a join are planned once whatever their parameters: left as built.
    return SelectQueryNode.is(node) && node.joins?.length ? this.transformer.transformNode(node) : node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}
