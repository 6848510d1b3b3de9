export { Deprecated } from './deprecated.decorator';
export { DeprecationModule } from './deprecation.module';
