import { registerAs } from '@nestjs/config';
import { ConfigError, withoutCredentials, Settings } from '@app/platform';

/** How the root of a trace is sampled: OpenTelemetry's OTEL_TRACES_SAMPLER values. */
export const SAMPLERS = [
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
  'always_on',
  'always_off',
  'traceidratio',
] as const;
export type SamplerName = (typeof SAMPLERS)[number];

/** What the exporter sends: OTLP over HTTP, as protobuf (OpenTelemetry's default) or JSON. */
export const PROTOCOLS = ['http/protobuf', 'http/json'] as const;

/**
 * Tracing's own variables: OpenTelemetry's standard ones, so that an
 * operator's collector settings work as they do for any other service.
 * Tracing is on when an endpoint is set.
 */
export class TracingSettings {
  private constructor(
    /** Where spans are sent (the full URL of the traces path); `undefined`: tracing is off. */
    readonly endpoint: string | undefined,
    readonly protocol: (typeof PROTOCOLS)[number],
    /** Headers sent with every export (a collector's credentials, say). */
    readonly headers: Readonly<Record<string, string>>,
    readonly timeoutMs: number,
    readonly serviceName: string | undefined,
    /** Resource attributes besides the service's name and version. */
    readonly resource: Readonly<Record<string, string>>,
    readonly sampler: SamplerName,
    /** The ratio of the `traceidratio` samplers, 0 to 1. */
    readonly ratio: number,
    /** Ended spans waiting for export at most; past it they are dropped and counted. */
    readonly maxQueueSize: number,
    readonly scheduleDelayMs: number,
    /** Characters a string attribute keeps (a request's `User-Agent`, say); the rest is cut. */
    readonly attributeValueLengthLimit: number,
  ) {}

  /** Reads and checks them; throws a ConfigError naming the variable. */
  static of(settings: Settings): TracingSettings {
    const specific = url(settings, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
    const base = url(settings, 'OTEL_EXPORTER_OTLP_ENDPOINT');
    const endpoint = specific ?? (base === undefined ? undefined : `${base.replace(/\/$/, '')}/v1/traces`);
    return new TracingSettings(
      endpoint,
      protocolOf(settings, 'OTEL_EXPORTER_OTLP_PROTOCOL'),
      pairs(settings, 'OTEL_EXPORTER_OTLP_HEADERS'),
      settings.integer('OTEL_EXPORTER_OTLP_TIMEOUT', 10_000, 1, 600_000),
      settings.text('OTEL_SERVICE_NAME'),
      pairs(settings, 'OTEL_RESOURCE_ATTRIBUTES'),
      settings.oneOf('OTEL_TRACES_SAMPLER', SAMPLERS, 'parentbased_always_on'),
      ratio(settings),
      settings.integer('OTEL_BSP_MAX_QUEUE_SIZE', 2048, 1, 1_000_000),
      settings.integer('OTEL_BSP_SCHEDULE_DELAY', 5_000, 1, 600_000),
      // OpenTelemetry's default is no limit: a client's 15 KB header would then be kept in every span of its.
      settings.integer('OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT', 1_024, 1, 1_000_000),
    );
  }
}

function url(settings: Settings, name: string): string | undefined {
  const value = settings.text(name);
  if (value === undefined) return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(value);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol)) {
    throw new ConfigError(name, `must be an http(s) URL (got "${withoutCredentials(value)}")`);
  }
  return value;
}

function protocolOf(settings: Settings, name: string): TracingSettings['protocol'] {
  if (settings.text(name) === 'grpc') {
    throw new ConfigError(name, 'grpc is not supported: use http/protobuf (the default) or http/json');
  }
  return settings.oneOf(name, PROTOCOLS, 'http/protobuf');
}

/** `key=value,key=value`, values percent-decoded (the W3C Baggage format the OTEL_* variables use). */
function pairs(settings: Settings, name: string): Record<string, string> {
  const entries = settings.list(name).map((entry) => {
    const equals = entry.indexOf('=');
    const key = entry.slice(0, equals).trim();
    let value: string | undefined;
    try {
      value = decodeURIComponent(entry.slice(equals + 1).trim());
    } catch {
      value = undefined;
    }
    if (equals <= 0 || key === '' || value === undefined) {
      throw new ConfigError(name, 'must be key=value pairs separated by commas, values percent-encoded');
    }
    return [key, value] as const;
  });
  return Object.fromEntries(entries);
}

function ratio(settings: Settings): number {
  const value = settings.text('OTEL_TRACES_SAMPLER_ARG');
  if (value === undefined) return 1;
  const parsed = /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
  if (!(parsed >= 0 && parsed <= 1)) {
    throw new ConfigError('OTEL_TRACES_SAMPLER_ARG', `must be a ratio from 0 to 1 (got "${value}")`);
  }
  return parsed;
}

/** These settings as Nest's configuration names them (`tracing`): read from the environment when the application starts. */
export const tracingConfig = registerAs('tracing', (): TracingSettings =>
  TracingSettings.of(new Settings(process.env)),
);
