import { Controller, Get, Header, Inject } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckService,
  HealthIndicatorService,
  type HealthCheckResult,
  type HealthIndicatorResult,
} from '@nestjs/terminus';
import { SERVICE_INFO, type ServiceInfo } from '../config/service-info';
import { AppError } from '../errors/app-error';
import { PLATFORM_ERROR_CODES } from '../errors/error-catalogue';
import { ForMonitors } from '../http/management.decorator';
import { Draining } from '../lifecycle/draining';
import { EdgeSettings } from '../edge/edge.settings';
import { ReadinessCheck } from './readiness';

/** A check that asks its dependency on every readiness check. */
type Probe = ReadinessCheck & Required<Pick<ReadinessCheck, 'isUp'>>;

/**
 * Liveness and readiness for load balancers, outside `/v1` and without a key. Readiness fails (503) from the start of
 * a shutdown, while the API's port is full of connections none of which can be shed, and while a module's
 * `@ReadinessCheck()` provider says so (found through Nest's discovery). Both name the release that answers
 * (`version`).
 */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly drain: Draining,
    private readonly edge: EdgeSettings,
    private readonly discovery: DiscoveryService,
    @Inject(SERVICE_INFO) private readonly service: ServiceInfo,
  ) {}

  /** The modules' checks, found once they are all created (on the first readiness check). */
  private checks?: { readonly states: readonly ReadinessCheck[]; readonly probes: readonly Probe[] };

  @Get('live')
  @ForMonitors()
  @Header('cache-control', 'no-store')
  live(): { status: 'ok'; version: string } {
    return { status: 'ok', version: this.service.release };
  }

  @Get('ready')
  @ForMonitors()
  // terminus' @HealthCheck() sets Cache-Control itself.
  @HealthCheck()
  async ready(): Promise<HealthCheckResult & { version: string }> {
    if (this.drain.isDraining) {
      throw new AppError('unavailable', PLATFORM_ERROR_CODES.shuttingDown, 'the service is shutting down');
    }
    const { states, probes } = (this.checks ??= this.discover());
    let problem = this.edge.connections.problem();
    for (const check of states) problem ??= check.problem!();
    if (problem) throw new AppError('unavailable', PLATFORM_ERROR_CODES.notReady, `not ready: ${problem}`);
    const down: string[] = [];
    try {
      const result = await this.health.check(probes.map((probe) => () => this.ask(probe, down)));
      return { ...result, version: this.service.release };
    } catch (error) {
      const message = `not ready: the ${down[0] ?? 'service'} is unavailable`;
      throw new AppError('unavailable', PLATFORM_ERROR_CODES.notReady, message, { cause: error });
    }
  }

  private discover(): { states: ReadinessCheck[]; probes: Probe[] } {
    const checks = this.discovery
      .getProviders({ metadataKey: ReadinessCheck.KEY })
      .map((wrapper) => wrapper.instance as ReadinessCheck);
    return {
      states: checks.filter((check) => check.problem !== undefined),
      probes: checks.filter((check): check is Probe => check.isUp !== undefined),
    };
  }

  /** One probe as terminus reports it, with how long it took; `down` collects the names of those down. */
  private async ask(probe: Probe, down: string[]): Promise<HealthIndicatorResult> {
    const session = this.indicators.check(probe.name);
    const started = Date.now();
    const up = await probe.isUp().catch(() => false);
    if (up) return session.up({ responseTime: Date.now() - started });
    down.push(probe.name);
    return session.down({ responseTime: Date.now() - started });
  }
}
