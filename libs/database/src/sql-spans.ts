import type { RequestTracing } from '@app/platform';

/** Statements whose span name is kept: a module that writes its values into its SQL must not grow the cache. */
const DESCRIBED_AT_MOST = 500;

/**
 * The spans of a request's database work, when tracing is on: one per
 * statement, named by its operation and table (`SELECT pets`), and one per
 * transaction, with its statements inside. The statement's text is recorded:
 * the service's SQL carries its values as parameters, which are not.
 */
export class SqlSpans {
  private readonly statements = new Map<string, { name: string; attributes: Record<string, string> }>();

  constructor(
    private readonly tracing: RequestTracing,
    private readonly system: 'sqlite' | 'postgresql',
  ) {}

  statement<T>(sql: string, work: () => Promise<T>): Promise<T> {
    let span = this.statements.get(sql);
    if (span === undefined) {
      span = this.describe(sql);
      if (this.statements.size < DESCRIBED_AT_MOST) this.statements.set(sql, span);
    }
    return this.tracing.span(span.name, span.attributes, work);
  }

  /**
   * `run` runs `work` in a transaction; on SQLite it runs in a batch, in
   * another request's turn, so it is bound to this request's span first.
   */
  transaction<T>(work: () => Promise<T>, run: (work: () => Promise<T>) => Promise<T>): Promise<T> {
    return this.tracing.span('transaction', { 'db.system.name': this.system }, () => run(this.tracing.bind(work)));
  }

  private describe(sql: string): { name: string; attributes: Record<string, string> } {
    const operation = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SQL';
    const table = /\b(?:FROM|INTO|UPDATE)\s+"?(\w+)"?/i.exec(sql)?.[1];
    const attributes: Record<string, string> = {
      'db.system.name': this.system,
      'db.operation.name': operation,
      'db.query.text': sql,
    };
    if (table !== undefined) attributes['db.collection.name'] = table;
    return { name: table === undefined ? operation : `${operation} ${table}`, attributes };
  }
}
