export { TracingModule } from './tracing.module';
