import { Injectable } from '@nestjs/common';
import { OperationContract, type ReadHeader } from '@app/platform';

/**
 * What `@Idempotent()` adds to the contract: a request gives at most one key (two would be judged on the first
 * alone), and an answer says whether it is a replay.
 */
@Injectable()
@OperationContract()
export class IdempotencyContract implements OperationContract {
  readonly reads: readonly ReadHeader[] = [{ name: 'Idempotency-Key', once: true }];
  readonly sends: readonly string[] = ['Idempotent-Replayed'];
}
