import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { OperationContract } from '@app/platform';
import { describeStabilities } from './stability.document';

/** What `@Stability()` declares, put in the document. */
@Injectable()
@OperationContract()
export class StabilityContract implements OperationContract {
  describe(document: OpenAPIObject): void {
    describeStabilities(document);
  }
}
