import { Injectable, Module } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { Test } from '@nestjs/testing';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error';
import { OperationContract, OperationContracts, type ReadHeader } from './operation-contract';

const slow = new AppError('unavailable', 'slow_down', 'try later');
const away = new AppError('unavailable', 'away', 'the store is away');
const tooMany = new AppError('rate_limited', 'too_many', 'too many');

@Injectable()
@OperationContract()
class Keyed implements OperationContract {
  readonly reads: readonly ReadHeader[] = [{ name: 'Order-Key', once: true }, { name: 'Order-Hint' }];
  readonly sends = ['Order-Replayed'];
  readonly mayAnswer = [slow, tooMany];
  describe(document: OpenAPIObject): void {
    document.info.title += ' keyed';
  }
}

@Injectable()
@OperationContract()
class Away implements OperationContract {
  readonly mayAnswer = [away];
}

/** Not marked: none of what it says is the contract's. */
@Injectable()
class Unmarked implements OperationContract {
  readonly sends = ['Secret'];
}

@Module({ providers: [Away, Unmarked] })
class OtherModule {}

describe('OperationContracts', () => {
  it("gathers what every module's @OperationContract() provider adds, and only theirs", async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [DiscoveryModule, OtherModule],
      providers: [Keyed],
    }).compile();
    const contracts = OperationContracts.discovered(moduleRef.get(DiscoveryService));
    expect(contracts.requestHeaders).toEqual(['Order-Key', 'Order-Hint']);
    expect(contracts.singleValued).toEqual(['Order-Key']);
    expect(contracts.answerHeaders).toEqual(['Order-Replayed']);
    // By status, in the order the providers and their errors were found: the first of a status is its example.
    expect([...contracts.errors.keys()].sort()).toEqual([429, 503]);
    expect(contracts.errors.get(429)).toEqual([tooMany]);
    expect(new Set(contracts.errors.get(503))).toEqual(new Set([slow, away]));
    const document = { openapi: '3.0.0', info: { title: 'Orders', version: '1' }, paths: {} } as OpenAPIObject;
    contracts.describe(document);
    expect(document.info.title).toBe('Orders keyed');
    await moduleRef.close();
  });

  it('is empty where no module adds anything', () => {
    const contracts = new OperationContracts([]);
    expect([contracts.requestHeaders, contracts.singleValued, contracts.answerHeaders]).toEqual([[], [], []]);
    expect(contracts.errors.size).toBe(0);
  });
});
