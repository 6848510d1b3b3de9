import { AppConfig, Composition, type Part, type Schema } from '@app/platform';
import { COMPOSITION } from '../../apps/petstore/src/composition';

/**
 * The service's schema, every part's tables and migrations, as a tool beside the service composes it (no API_KEYS:
 * auth's upgrade step moves no record). `parts` may add a test's own.
 */
export function serviceSchema(parts: readonly Part[] = COMPOSITION): Schema {
  return Composition.of(parts, AppConfig.fromEnvironment({ NODE_ENV: 'test' })).schema;
}
