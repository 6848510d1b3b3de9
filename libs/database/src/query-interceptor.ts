import type { QueryRunner } from 'typeorm';

/**
 * `shared` with its `query()` sent through `query` instead (to watch or refuse statements), everything else of it as
 * it is: the guards of a transaction's connection (RollbackGuard, TransactionFence) wrap the one runner this way.
 */
export function interceptQueries(
  shared: QueryRunner,
  query: (args: Parameters<QueryRunner['query']>) => Promise<unknown>,
): QueryRunner {
  const intercepted = (...args: Parameters<QueryRunner['query']>) => query(args);
  return new Proxy(shared, {
    get: (target, property) => {
      if (property === 'query') return intercepted;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
