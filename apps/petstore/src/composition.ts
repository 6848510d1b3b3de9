import { authCapability } from '@app/auth';
import { databaseCapability } from '@app/database';
import { deprecationCapability } from '@app/deprecation';
import { eventsCapability } from '@app/events';
import { idempotencyCapability } from '@app/idempotency';
import { petsFeature } from '@app/pets';
import type { Capability, Feature, Part } from '@app/platform';
import { rateLimitCapability } from '@app/rate-limit';
import { stabilityCapability } from '@app/stability';
import { storeFeature } from '@app/store';
import { tracingCapability } from '@app/tracing';
import { validationCapability } from '@app/validation';

/**
 * The service, part by part (decision 0028). The app module composes them in this order after the platform core, the
 * database makes their tables and runs their migrations, the README and architecture checks read them, and
 * `npm run generate:module` adds a new feature at the end of FEATURES. Each part comes after every part its
 * `module.json` says it depends on: `npm run lint` checks the order, and that every library under `libs/` is here.
 */
export const CAPABILITIES: readonly Capability[] = [
  tracingCapability,
  validationCapability,
  deprecationCapability,
  stabilityCapability,
  databaseCapability,
  eventsCapability,
  rateLimitCapability,
  idempotencyCapability,
  authCapability,
];

/** The parts that serve routes, under `/v1`. */
export const FEATURES: readonly Feature[] = [petsFeature, storeFeature];

export const COMPOSITION: readonly Part[] = [...CAPABILITIES, ...FEATURES];
