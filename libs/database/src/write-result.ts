import type { QueryResult } from 'typeorm';

/** What a write did (SqlClient.write). */
export interface WriteResult {
  /** The rows it inserted, updated or deleted. */
  readonly changed: number;
  /** The rows of its `RETURNING` clause, on either database (SQLite steps such a write to its end first). */
  readonly rows: ReadonlyArray<Record<string, unknown>>;
  /** SQLite: the rowid of the row an INSERT made. */
  readonly rowId?: number;
}

/** TypeORM's structured result of a write, on either driver. */
export function writeResultOf(result: QueryResult): WriteResult {
  return {
    changed: result.affected ?? 0,
    rows: result.records ?? [],
    rowId: typeof result.raw === 'number' ? result.raw : undefined,
  };
}
