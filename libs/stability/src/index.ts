import { defineCapability } from '@app/platform';
import { StabilityModule } from './stability.module';

export { Stability } from './stability.decorator';

/** Stability levels as the application composes it: what `@Stability()` declares, in the document. */
export const stabilityCapability = defineCapability({ name: 'stability', module: () => StabilityModule });
