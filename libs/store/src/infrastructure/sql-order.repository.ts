import { Injectable } from '@nestjs/common';
import { SqlClient } from '@app/database';
import type { Order } from '../domain/order';
import { OrderRepository, type OrderListQuery } from '../domain/order.repository';
import { OrderStatus } from '../domain/order-status';
import { OrderMapper } from './order.mapper';
import type { OrderRecord } from './order.record';

/**
 * The columns as OrderRecord names them; the int64s as decimal text, exact past 2^53 on both databases. The
 * statements name the table's column in full (`store_orders.id`): a bare `id` in ORDER BY would sort the text.
 */
const COLUMNS =
  'CAST(id AS TEXT) AS id, CAST(pet_id AS TEXT) AS "petId", quantity, CAST(ship_date AS TEXT) AS "shipDate", ' +
  'status, version';

/**
 * The `store_orders` table through the platform's SqlClient: statements written once for both databases, each a
 * span of the request's trace. Ids are bound as decimal text. A save is persisted with the unit of work, which
 * writes it when it commits.
 */
@Injectable()
export class SqlOrderRepository extends OrderRepository {
  private readonly sql: { insert: string; update: string; byId: string; all: string; byStatus: string };
  /** The status each order findById() read had in its row: its save is guarded by it too (see `update`). */
  private readonly readStatus = new WeakMap<Order, string>();

  constructor(private readonly db: SqlClient) {
    super();
    const { dialect } = db;
    this.sql = {
      insert: dialect.insertReturningId(
        `INSERT INTO store_orders (pet_id, quantity, ship_date, status) VALUES ($1, $2, $3, '${OrderStatus.Placed.value}')`,
      ),
      // Guarded by the version it was read at, and by the status it had (a release before this one changes a status
      // without the version): of two writers who read the same order, exactly one changes it.
      update: dialect.statement(
        'UPDATE store_orders SET status = $3, version = version + 1 WHERE id = $1 AND version = $2 AND status = $4',
      ),
      byId: dialect.statement(`SELECT ${COLUMNS} FROM store_orders WHERE store_orders.id = $1`),
      all: dialect.statement(
        `SELECT ${COLUMNS} FROM store_orders WHERE store_orders.id > $1 ORDER BY store_orders.id LIMIT $2`,
      ),
      // Served by the (status, id) index without a sort.
      byStatus: dialect.statement(
        `SELECT ${COLUMNS} FROM store_orders WHERE status = $1 AND store_orders.id > $2 ORDER BY store_orders.id LIMIT $3`,
      ),
    };
  }

  async save(order: Order): Promise<void> {
    this.db.persist(order, () => {
      if (order.isNew) {
        const { petId, quantity, shipDate } = OrderMapper.toRecord(order);
        return { sql: this.sql.insert, parameters: [petId, quantity, shipDate], inserted: (id) => order.stored(id, 1) };
      }
      const { id, version } = order;
      const readStatus = this.readStatus.get(order);
      if (readStatus === undefined) {
        throw new Error(`order ${id} saved without being read by findById(): read it so, then change it`);
      }
      return {
        sql: this.sql.update,
        parameters: [String(id), version, order.status.value, readStatus],
        updated: () => order.stored(id, version + 1),
      };
    });
  }

  /** The order, read once per unit of work. */
  findById(id: bigint): Promise<Order | undefined> {
    return this.db.readOnce(`store_orders:${id}`, async () => {
      const [record] = await this.db.read<OrderRecord>(this.sql.byId, [String(id)]);
      return record ? this.restored(record) : undefined;
    });
  }

  async list({ status, limit, after }: OrderListQuery): Promise<Order[]> {
    const records = status
      ? await this.db.read<OrderRecord>(this.sql.byStatus, [status.value, String(after), limit])
      : await this.db.read<OrderRecord>(this.sql.all, [String(after), limit]);
    // Read for a page, not to be changed: kept nowhere (a change reads its order with findById()).
    return records.map(OrderMapper.toDomain);
  }

  private restored(record: OrderRecord): Order {
    const order = OrderMapper.toDomain(record);
    this.readStatus.set(order, record.status);
    return order;
  }
}
