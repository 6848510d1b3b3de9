import { DiscoveryService } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { AppError } from '../errors/app-error';
import { STATUS_OF_KIND } from '../errors/error-catalogue';

/** A request header a module reads; `once`: refused 400 when given twice (two would be judged on the first alone). */
export interface ReadHeader {
  readonly name: string;
  readonly once?: boolean;
}

/**
 * What a module adds to the contract of every operation, said by a provider of its module marked
 * `@OperationContract()` (found through Nest's `DiscoveryService`): the request headers it reads, the answer headers
 * it sends, the errors it may answer any operation with (the first of a status gives the document its example), and
 * its edit of the OpenAPI document. CORS allows and exposes the headers, the header check refuses a `once` header
 * given twice, and the document lists the errors on every operation. A provider says what its settings make true
 * (the rate limit, off, adds nothing).
 */
export interface OperationContract {
  readonly reads?: readonly ReadHeader[];
  readonly sends?: readonly string[];
  readonly mayAnswer?: readonly AppError[];
  /** Applied to the OpenAPI document once Nest's Swagger module has built it. */
  describe?(document: OpenAPIObject): void;
}

/** Marks a provider that adds to every operation's contract (see the interface of the same name). */
export const OperationContract = DiscoveryService.createDecorator<void>();

/** Every module's `@OperationContract()`, together: what CORS, the header check and the document read. */
export class OperationContracts {
  readonly requestHeaders: readonly string[];
  /** The headers a request may carry once only. */
  readonly singleValued: readonly string[];
  readonly answerHeaders: readonly string[];
  /** The errors of each shared status, in the order their providers were found. */
  readonly errors: ReadonlyMap<number, readonly AppError[]>;
  private readonly contracts: readonly OperationContract[];

  constructor(contracts: readonly OperationContract[]) {
    this.contracts = contracts;
    const reads = contracts.flatMap((contract) => contract.reads ?? []);
    this.requestHeaders = reads.map(({ name }) => name);
    this.singleValued = reads.filter(({ once }) => once === true).map(({ name }) => name);
    this.answerHeaders = contracts.flatMap((contract) => contract.sends ?? []);
    const errors = new Map<number, AppError[]>();
    for (const error of contracts.flatMap((contract) => contract.mayAnswer ?? [])) {
      const status = STATUS_OF_KIND[error.kind];
      errors.set(status, [...(errors.get(status) ?? []), error]);
    }
    this.errors = errors;
  }

  /** The providers Nest's discovery finds among the application's: asked once the application is created. */
  static discovered(discovery: DiscoveryService): OperationContracts {
    return new OperationContracts(
      discovery
        .getProviders({ metadataKey: OperationContract.KEY })
        .map((wrapper) => wrapper.instance as OperationContract),
    );
  }

  /** Each module's edit of the document, in turn. */
  describe(document: OpenAPIObject): void {
    for (const contract of this.contracts) contract.describe?.(document);
  }
}
