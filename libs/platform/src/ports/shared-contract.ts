import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { AppError } from '../errors/app-error';
import { STATUS_OF_KIND } from '../errors/error-catalogue';

/**
 * What a capability adds to every operation, named when its module is created: the request headers it reads (one read
 * `once` is refused given twice), the answer headers it sends, the errors it may answer any operation with, and what it
 * says in the document. CORS, the header check and the OpenAPI document read it.
 */
@Injectable()
export class SharedContract {
  readonly requestHeaders = new Set<string>();
  readonly singleValued = new Set<string>();
  readonly answerHeaders = new Set<string>();
  /** The errors of each shared status, the first given its example. */
  readonly errors = new Map<number, AppError[]>();
  /** Applied to the OpenAPI document once it is built, in the order given. */
  readonly documentEdits: Array<(document: OpenAPIObject) => void> = [];

  reads(name: string, { once = false } = {}): this {
    this.requestHeaders.add(name);
    if (once) this.singleValued.add(name);
    return this;
  }

  sends(...names: string[]): this {
    for (const name of names) this.answerHeaders.add(name);
    return this;
  }

  describes(edit: (document: OpenAPIObject) => void): this {
    this.documentEdits.push(edit);
    return this;
  }

  mayAnswer(...errors: AppError[]): this {
    for (const error of errors) {
      const status = STATUS_OF_KIND[error.kind];
      const errors = this.errors.get(status);
      if (errors) errors.push(error);
      else this.errors.set(status, [error]);
    }
    return this;
  }
}
