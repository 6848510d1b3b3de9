import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { OperationContract } from '@app/platform';
import { describeValidation } from './validation.document';

/** What the validation refuses, said in the document for generated clients and schema-driven testers. */
@Injectable()
@OperationContract()
export class ValidationContract implements OperationContract {
  describe(document: OpenAPIObject): void {
    describeValidation(document);
  }
}
