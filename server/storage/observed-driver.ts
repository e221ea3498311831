/**
 * A Kysely driver around the real one (SQLite or PostgreSQL) that tells StorageHealth what the
 * database says, and keeps a failed transaction's own error.
 *
 * Why the rollback is different: after SQLITE_FULL, SQLite has already rolled the transaction
 * back, so Kysely's ROLLBACK fails with "cannot rollback - no transaction is active", and that
 * error replaced the one that mattered ("database or disk is full") in the log. On PostgreSQL a
 * lost connection does the same ("Client was closed and is not queryable"). A rollback that fails
 * has nothing left to undo (the server ended the transaction, or the connection, which pg's pool
 * then discards), so its error is dropped and the transaction's own error is what callers see.
 */
import type { CompiledQuery, DatabaseConnection, Driver, QueryResult, TransactionSettings } from 'kysely';
import type { StorageHealth } from './health.js';

const WRITES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);

export class ObservedDriver implements Driver {
  /** Our connection → the driver's own (its release relies on the original object). */
  private readonly inner = new WeakMap<DatabaseConnection, DatabaseConnection>();
  private readonly inTransaction = new WeakSet<DatabaseConnection>();

  constructor(
    private readonly driver: Driver,
    private readonly health: StorageHealth,
  ) {}

  init(): Promise<void> {
    return this.driver.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.observe(() => this.driver.acquireConnection());
    const observed: DatabaseConnection = {
      executeQuery: <R>(query: CompiledQuery) => this.execute<R>(observed, connection, query),
      streamQuery: <R>(query: CompiledQuery, chunkSize?: number) => connection.streamQuery<R>(query, chunkSize),
    };
    this.inner.set(observed, connection);
    return observed;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await this.observe(() => this.driver.beginTransaction(this.unwrap(connection), settings));
    this.inTransaction.add(connection);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    this.inTransaction.delete(connection);
    await this.observe(() => this.driver.commitTransaction(this.unwrap(connection)));
    this.health.recovered();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    this.inTransaction.delete(connection);
    try {
      await this.driver.rollbackTransaction(this.unwrap(connection));
    } catch {
      // Nothing left to undo (see above): the transaction's own error is the one to report.
    }
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.inTransaction.delete(connection);
    return this.driver.releaseConnection(this.unwrap(connection));
  }

  destroy(): Promise<void> {
    return this.driver.destroy();
  }

  private unwrap(connection: DatabaseConnection): DatabaseConnection {
    return this.inner.get(connection) ?? connection;
  }

  private async execute<R>(observed: DatabaseConnection, connection: DatabaseConnection, query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.observe(() => connection.executeQuery<R>(query));
    // A write outside a transaction is a commit of its own.
    if (!this.inTransaction.has(observed) && WRITES.has(query.query.kind)) this.health.recovered();
    return result;
  }

  private async observe<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      this.health.failed(err);
      throw err;
    }
  }
}
