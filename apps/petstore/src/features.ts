import type { Feature } from '@app/platform';
import * as registry from './feature-registry';

/** Every feature of the registry (ordered by name; migrations run in the order of their timestamps). */
export const FEATURES: readonly Feature[] = Object.values(registry);
