export { Body } from './body.decorator';
export { IsDateTime, parseDateTime } from './date-time';
export { INT64_RULE, IntegerIdPipe, IsInt64 } from './integer-id.pipe';
export { NoQueryParameters, RequestValidationPipe } from './validation.pipe';
export { PageQuery } from './page-query';
export { ValidationModule } from './validation.module';
