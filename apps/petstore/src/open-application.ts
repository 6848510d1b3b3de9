import type { INestApplicationContext, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';

/**
 * The service's modules, created as `npm start` creates them (their configuration read from the environment, the
 * database brought up to date by every module's migrations) and never started: nothing listens, no module's start
 * runs (no subscription, no key refresh), and nothing is logged. For the tools beside the service (`npm run keys`);
 * `features` adds modules of a test's own, as the service it tests runs them.
 */
export function openApplication(...features: Type[]): Promise<INestApplicationContext> {
  const root = features.length > 0 ? AppModule.withFeatures(...features) : AppModule;
  return NestFactory.create(root, new FastifyAdapter(), { logger: false, abortOnError: false });
}
