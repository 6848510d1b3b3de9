export { ConnectionLimitsModule } from './connection-limits.module';
