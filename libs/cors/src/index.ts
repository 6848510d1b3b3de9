export { CorsModule } from './cors.module';
