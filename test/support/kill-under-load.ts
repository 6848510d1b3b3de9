import { randomInt } from 'node:crypto';
import { expect } from 'vitest';
import type { ServiceProcess } from './service-process';
import { waitFor } from './wait-for';
import { startWriters } from './writers';

/**
 * Pets created on `instances` services (started one after another: the first migrates) by concurrent writers, until
 * `creates` are acknowledged; the first killed with SIGKILL at a random point of the load (requests in flight, no
 * shutdown hook), and started again a little later (at once when it is alone). Returns the ids of the pets acknowledged. `start` keeps every
 * process it starts, for the caller to kill on every path.
 */
export async function createWhileOneIsKilled(
  start: () => Promise<ServiceProcess>,
  { instances, creates, waitMs }: { instances: number; creates: number; waitMs: number },
): Promise<string[]> {
  const services = [await start()];
  for (let n = 1; n < instances; n++) services.push(await start());
  const writers = services.map((service, n) => startWriters(service.baseUrl, { concurrency: 8, prefix: `w${n}` }));
  const acknowledged = () => writers.reduce((sum, w) => sum + w.acknowledged().length, 0);

  const killAt = randomInt(creates / 10, creates / 2);
  await waitFor(() => acknowledged() >= killAt, `${killAt} acknowledged creates`, waitMs);
  services[0].child.kill('SIGKILL');
  expect(await services[0].exited).toBe('SIGKILL');
  await writers[0].stop();
  // Started again once the others have gone on without it for a while (at once, if there are none).
  const restartAt = acknowledged() + (instances > 1 ? randomInt(creates / 20, creates / 10) : 0);
  await waitFor(() => acknowledged() >= restartAt, `${restartAt} acknowledged creates`, waitMs);
  const again = await start();
  writers.push(startWriters(again.baseUrl, { concurrency: 8, prefix: 'w0-again' }));
  await waitFor(() => acknowledged() >= creates, `${creates} acknowledged creates`, waitMs);
  await Promise.all(writers.map((w) => w.stop()));
  return writers.flatMap((w) => w.acknowledged().map((pet) => String(pet.id)));
}
