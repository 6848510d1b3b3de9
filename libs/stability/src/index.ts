export { Stability } from './stability.decorator';
export { StabilityModule } from './stability.module';
