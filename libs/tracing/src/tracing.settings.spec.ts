import { describe, expect, it } from 'vitest';
import { expectRefusalNaming } from '@test/support/config-errors';
import { ConfigError, Settings } from '@app/platform';
import { TracingSettings } from './tracing.settings';

const of = (env: Record<string, string>) => TracingSettings.of(new Settings(env));

describe('TracingSettings', () => {
  it('is off without an endpoint, with OpenTelemetry’s defaults otherwise', () => {
    expect({ ...of({}) }).toEqual({
      endpoint: undefined,
      protocol: 'http/protobuf',
      headers: {},
      timeoutMs: 10_000,
      serviceName: undefined,
      resource: {},
      sampler: 'parentbased_always_on',
      ratio: 1,
      maxQueueSize: 2048,
      scheduleDelayMs: 5_000,
      attributeValueLengthLimit: 1_024,
    });
  });

  it('reads every variable, the traces path added to the base endpoint', () => {
    expect({
      ...of({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.internal:4318/',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20abc,x-tenant=shop',
        OTEL_EXPORTER_OTLP_TIMEOUT: '2500',
        OTEL_SERVICE_NAME: 'petstore-eu',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=production, service.namespace=shop',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
        OTEL_BSP_MAX_QUEUE_SIZE: '512',
        OTEL_BSP_SCHEDULE_DELAY: '1000',
        OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT: '256',
      }),
    }).toEqual({
      endpoint: 'https://collector.internal:4318/v1/traces',
      protocol: 'http/json',
      headers: { authorization: 'Bearer abc', 'x-tenant': 'shop' },
      timeoutMs: 2500,
      serviceName: 'petstore-eu',
      resource: { 'deployment.environment.name': 'production', 'service.namespace': 'shop' },
      sampler: 'parentbased_traceidratio',
      ratio: 0.25,
      maxQueueSize: 512,
      scheduleDelayMs: 1000,
      attributeValueLengthLimit: 256,
    });
  });

  it('takes the traces endpoint as given, before the base one', () => {
    expect(
      of({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces.internal/ingest',
      }).endpoint,
    ).toBe('http://traces.internal/ingest');
  });

  it.each([
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT'],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'grpc://collector:4317' }, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'],
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'thrift' }, 'OTEL_EXPORTER_OTLP_PROTOCOL'],
    [{ OTEL_EXPORTER_OTLP_HEADERS: 'no-equals-sign' }, 'OTEL_EXPORTER_OTLP_HEADERS'],
    [{ OTEL_EXPORTER_OTLP_HEADERS: 'bad=%E0%A4%A' }, 'OTEL_EXPORTER_OTLP_HEADERS'],
    [{ OTEL_EXPORTER_OTLP_TIMEOUT: '0' }, 'OTEL_EXPORTER_OTLP_TIMEOUT'],
    [{ OTEL_RESOURCE_ATTRIBUTES: '=value' }, 'OTEL_RESOURCE_ATTRIBUTES'],
    [{ OTEL_TRACES_SAMPLER: 'sometimes' }, 'OTEL_TRACES_SAMPLER'],
    [{ OTEL_TRACES_SAMPLER_ARG: '1.5' }, 'OTEL_TRACES_SAMPLER_ARG'],
    [{ OTEL_TRACES_SAMPLER_ARG: 'half' }, 'OTEL_TRACES_SAMPLER_ARG'],
    [{ OTEL_BSP_MAX_QUEUE_SIZE: '0' }, 'OTEL_BSP_MAX_QUEUE_SIZE'],
    [{ OTEL_BSP_SCHEDULE_DELAY: 'soon' }, 'OTEL_BSP_SCHEDULE_DELAY'],
  ])('refuses %j, naming %s', (env, variable) => {
    expectRefusalNaming(() => of(env), variable);
  });

  it('refuses grpc, saying what to use instead', () => {
    expect(() => of({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      new ConfigError(
        'OTEL_EXPORTER_OTLP_PROTOCOL',
        'grpc is not supported: use http/protobuf (the default) or http/json',
      ),
    );
  });

  it('never echoes the headers, which may carry a collector’s credentials', () => {
    expect(() => of({ OTEL_EXPORTER_OTLP_HEADERS: 'authorization:secret-token' })).toThrow(
      new ConfigError(
        'OTEL_EXPORTER_OTLP_HEADERS',
        'must be key=value pairs separated by commas, values percent-encoded',
      ),
    );
  });
});
