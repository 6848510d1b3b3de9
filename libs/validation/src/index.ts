import { defineCapability } from '@app/platform';
import { ValidationModule } from './validation.module';

export { IsDateTime, parseDateTime } from './date-time';
export { INT64_RULE, IntegerIdPipe, IsInt64 } from './integer-id.pipe';
export { NoQueryParameters, RequestValidationPipe } from './validation.pipe';
export { PageQuery } from './page-query';

/** Request validation as the application composes it: the global pipe, and what it refuses in the document. */
export const validationCapability = defineCapability({ name: 'validation', module: () => ValidationModule });
