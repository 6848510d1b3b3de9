import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `events_subscriptions.seen_at`: when an instance that has the subscription last said so. A row that no instance has
 * claimed for EVENTS_ORPHAN_GRACE_HOURS (its module removed) stops holding events back from the prune. The rows there
 * are count as seen now: each gets the whole grace from the upgrade.
 */
export class SubscriptionsSeenAt1795900000000 implements MigrationInterface {
  name = 'SubscriptionsSeenAt1795900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'events_subscriptions',
      new TableColumn({ name: 'seen_at', type: 'bigint', default: 0 }),
    );
    await queryRunner.query(`UPDATE events_subscriptions SET seen_at = ${Date.now()}`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('events_subscriptions', 'seen_at');
  }
}
