import { Module } from '@nestjs/common';
import { SharedContract } from '@app/platform';
import { describeStabilities } from './stability.document';

/** What `@Stability()` declares, put in the document. */
@Module({})
export class StabilityModule {
  constructor(shared: SharedContract) {
    shared.describes(describeStabilities);
  }
}
