import { idempotencyFeature } from '@app/idempotency';
import type { Feature } from '@app/platform';
import * as registry from './feature-registry';

/**
 * Every feature the service composes: the capability libraries that bring
 * tables of their own (idempotency), then the registry's modules (ordered by
 * name). The database takes their tables from here; migrations run in the
 * order of their timestamps.
 */
export const FEATURES: readonly Feature[] = [idempotencyFeature, ...Object.values(registry)];
