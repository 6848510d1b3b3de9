import { Injectable } from '@nestjs/common';
import { SqlClient } from '@app/database';
import { Order, type NewOrder } from '../domain/order';
import { OrderRepository, type OrderListQuery } from '../domain/order.repository';
import { ORDER_STEPS, OrderStatus, type OrderStep } from '../domain/order-status';
import { OrderMapper } from './order.mapper';
import type { OrderRecord } from './order.record';

/**
 * The columns as OrderRecord names them; the int64s as decimal text, exact past 2^53 on both databases. The
 * statements name the table's column in full (`store_orders.id`): a bare `id` in ORDER BY would sort the text.
 */
const COLUMNS =
  'CAST(id AS TEXT) AS id, CAST(pet_id AS TEXT) AS "petId", quantity, CAST(ship_date AS TEXT) AS "shipDate", status';

/**
 * The `store_orders` table through the platform's SqlClient: statements written once for both databases, each a
 * span of the request's trace, joining the unit of work a caller has open. Ids are bound as decimal text.
 */
@Injectable()
export class SqlOrderRepository extends OrderRepository {
  private readonly sql: { insert: string; byId: string; all: string; byStatus: string };
  /** Each step's conditional write: the row as it is after it, or no row when the order's status does not allow it. */
  private readonly steps: ReadonlyMap<OrderStep, string>;

  constructor(private readonly db: SqlClient) {
    super();
    const { dialect } = db;
    this.sql = {
      insert: dialect.insertReturningId(
        `INSERT INTO store_orders (pet_id, quantity, ship_date, status) VALUES ($1, $2, $3, '${OrderStatus.Placed.value}')`,
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
    this.steps = new Map(
      Object.values(ORDER_STEPS).map((step: OrderStep) => [
        step,
        dialect.statement(
          `UPDATE store_orders SET status = '${step.to.value}' WHERE store_orders.id = $1 AND status IN (` +
            `${step.from.map((status) => `'${status.value}'`).join(', ')}) RETURNING ${COLUMNS}`,
        ),
      ]),
    );
  }

  async add(order: NewOrder): Promise<Order> {
    const { petId, quantity, shipDate } = OrderMapper.toRecord(order);
    const result = await this.db.write(this.sql.insert, [petId, quantity, shipDate]);
    return Order.placed(this.db.dialect.insertedId(result), order);
  }

  async findById(id: bigint): Promise<Order | undefined> {
    const [record] = await this.db.read<OrderRecord>(this.sql.byId, [String(id)]);
    return record ? OrderMapper.toDomain(record) : undefined;
  }

  async list({ status, limit, after }: OrderListQuery): Promise<Order[]> {
    const records = status
      ? await this.db.read<OrderRecord>(this.sql.byStatus, [status.value, String(after), limit])
      : await this.db.read<OrderRecord>(this.sql.all, [String(after), limit]);
    return records.map(OrderMapper.toDomain);
  }

  async move(id: bigint, step: OrderStep): Promise<Order | undefined> {
    const { rows } = await this.db.write(this.steps.get(step)!, [String(id)]);
    return rows.length > 0 ? OrderMapper.toDomain(rows[0] as unknown as OrderRecord) : undefined;
  }
}
