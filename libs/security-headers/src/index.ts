export { SecurityHeadersModule } from './security-headers.module';
