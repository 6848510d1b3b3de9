export { ManagementPortModule } from './management-port.module';
