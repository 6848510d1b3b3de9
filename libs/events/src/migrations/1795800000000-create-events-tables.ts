import { generatedKeyColumn } from '@app/database';
import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/** The outbox, each subscriber's progress and its parked events, as their records declare them. */
export class CreateEventsTables1795800000000 implements MigrationInterface {
  name = 'CreateEventsTables1795800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'events_outbox',
        columns: [
          generatedKeyColumn(queryRunner, 'position'),
          { name: 'id', type: 'varchar', length: '36' },
          { name: 'name', type: 'varchar', length: '128' },
          { name: 'version', type: 'integer' },
          { name: 'aggregate_id', type: 'varchar', length: '64' },
          { name: 'occurred_at', type: 'bigint' },
          { name: 'payload', type: 'text' },
          { name: 'transaction_id', type: 'bigint' },
          { name: 'trace_parent', type: 'varchar', length: '55', isNullable: true },
        ],
        indices: [
          new TableIndex({ name: 'UQ_events_outbox_id', columnNames: ['id'], isUnique: true }),
          new TableIndex({ name: 'IDX_events_outbox_order', columnNames: ['transaction_id', 'position'] }),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'events_subscriptions',
        columns: [
          { name: 'subscriber', type: 'varchar', length: '128', isPrimary: true },
          { name: 'event', type: 'varchar', length: '128' },
          { name: 'after_transaction', type: 'bigint' },
          { name: 'after_position', type: 'bigint' },
          { name: 'attempts', type: 'integer' },
          { name: 'retry_at', type: 'bigint' },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'events_parked',
        columns: [
          { name: 'subscriber', type: 'varchar', length: '128', isPrimary: true },
          { name: 'event_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'position', type: 'bigint' },
          { name: 'attempts', type: 'integer' },
          { name: 'error', type: 'varchar', length: '1024' },
          { name: 'parked_at', type: 'bigint' },
          { name: 'replay_requested_at', type: 'bigint', isNullable: true },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('events_parked');
    await queryRunner.dropTable('events_subscriptions');
    await queryRunner.dropTable('events_outbox');
  }
}
