import { defineCapability } from '@app/platform';
import { TracingModule } from './tracing.module';
import { TracingSettings } from './tracing.settings';

/** Tracing as the application composes it: spans sent when OTEL_EXPORTER_OTLP_ENDPOINT is set, nothing run otherwise. */
export const tracingCapability = defineCapability({
  name: 'tracing',
  settings: (config) => TracingSettings.of(config.settings),
  module: (settings) => TracingModule.forRoot(settings),
});
