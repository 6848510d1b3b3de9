import { Module } from '@nestjs/common';
import { DeprecatedRoutes } from './deprecated-routes';

/** What `@Deprecated()` declares, put to work: the headers, the document, the metric. */
@Module({ providers: [DeprecatedRoutes] })
export class DeprecationModule {}
