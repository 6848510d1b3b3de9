import { defineCapability } from '@app/platform';
import { DeprecationModule } from './deprecation.module';

export { Deprecated } from './deprecated.decorator';

/** Deprecation as the application composes it: what `@Deprecated()` declares, put to work. */
export const deprecationCapability = defineCapability({ name: 'deprecation', module: () => DeprecationModule });
