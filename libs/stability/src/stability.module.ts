import { Module } from '@nestjs/common';
import { StabilityContract } from './stability.contract';

/** What `@Stability()` declares, put in the document. */
@Module({ providers: [StabilityContract] })
export class StabilityModule {}
