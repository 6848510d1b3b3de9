import { get } from 'node:http';
import { describe, expect, it } from 'vitest';
import { spawnChild } from './support/children';
import { freePort, memoryMb, servicePerTest, type ServiceProcess } from './support/service-process';
import { AUTH, TEST_API_KEY } from './support/test-app';
import { scaled, waitFor } from './support/wait-for';

/** The service's bound on lines about refused requests (libs/platform/src/logging/refusal-log.ts). */
const REFUSAL_LINES_PER_WINDOW = 1_000;
const REFUSAL_WINDOW_MS = 10_000;

/**
 * What one client without a key can make the service do: work it queues on a
 * connection, memory it holds, lines it makes the service write. The built
 * service as a process, real sockets.
 */
describe('floods from a client without a key', () => {
  const { start } = servicePerTest(TEST_API_KEY);

  it.each(['the API port', 'the management port'])(
    'pipelining to %s: 60 connections of 20,000 requests each, never read, leave liveness prompt and memory near idle, the log bounded',
    async (target) => {
      const managementPort = await freePort();
      const service = await start(
        target === 'the API port'
          ? { LOG_LEVEL: 'info' }
          : { LOG_LEVEL: 'info', MANAGEMENT_PORT: String(managementPort) },
      );
      // Liveness is probed where it is served, and flooded there.
      const port = target === 'the API port' ? Number(new URL(service.baseUrl).port) : managementPort;
      for (let n = 0; n < 20; n++) expect(await probe(port)).toBe(200);
      const idleMb = memoryMb(service, 'VmRSS');
      const linesBefore = linesOf(service).length;
      const attackStarted = Date.now();
      // The attacker, a process of its own as it would be: 680 KB a connection, written in one go, never read.
      const attacker = spawnChild(process.execPath, ['-e', ATTACKER, String(port)]);
      try {
        const probes: Array<number | string> = [];
        const closedFlooding = () =>
          linesOf(service).filter((line) => line.context === 'Connections' && /^closed a connection/.test(line.msg))
            .length;
        // Probes one after the other until the service has closed every flooding connection, and 20 more after.
        while (closedFlooding() < 60 && Date.now() - attackStarted < scaled(20_000)) probes.push(await probe(port));
        for (let n = 0; n < 20; n++) probes.push(await probe(port));
        expect(closedFlooding()).toBe(60);
        // Counted where monitors read the metrics (the same port as liveness).
        const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
        expect(metrics).toMatch(/^petstore_connections_closed_total\{reason="pipelining"\} 60$/m);
        // Every probe answered within an orchestrator's timeout: the service is never restarted for it (how prompt
        // liveness stays is a speed figure, not a deadline of a test on a machine of unknown load).
        expect(probes.filter((status) => status !== 200)).toEqual([]);
        expect(memoryMb(service, 'VmHWM') - idleMb).toBeLessThan(100);
        // At most the bound's lines for every window the attack spanned.
        const windows = Math.ceil((Date.now() - attackStarted) / REFUSAL_WINDOW_MS) + 1;
        const written = linesOf(service).slice(linesBefore);
        expect(written.length).toBeLessThanOrEqual(windows * (REFUSAL_LINES_PER_WINDOW + 1));
        // Served as usual after it, on new connections (the parsers the flood used go back to Node's pool).
        const after = await Promise.all(
          Array.from({ length: 50 }, () => fetch(`${service.baseUrl}/v1/pets`, { headers: AUTH })),
        );
        expect(after.map((response) => response.status)).toEqual(Array(50).fill(200));
      } finally {
        attacker.kill('SIGKILL');
      }
    },
  );

  it('refusals past the log bound are counted in one line, by status, instead of a line each', async () => {
    const service = await start({ LOG_LEVEL: 'info', AUTH_FAILURES_PER_MINUTE: '0' });
    const refusals = REFUSAL_LINES_PER_WINDOW + 500;
    let sent = 0;
    const client = async () => {
      while (sent < refusals) {
        sent++;
        const response = await fetch(`${service.baseUrl}/v1/pets`, { headers: { authorization: 'Bearer not-a-key' } });
        await response.arrayBuffer();
        expect(response.status).toBe(401);
      }
    };
    await Promise.all(Array.from({ length: 20 }, client));
    const isSummary = (line: Record<string, unknown>) => line.context === 'RequestLog';
    // At the end of the window the refusals fell in.
    await waitFor(
      () => linesOf(service).some(isSummary),
      'the summary of the lines left out',
      REFUSAL_WINDOW_MS + 5_000,
    );
    const summary = linesOf(service).find(isSummary);
    const written = linesOf(service).filter((line) => line.msg === 'request completed').length;
    expect(written).toBe(REFUSAL_LINES_PER_WINDOW);
    expect(summary).toMatchObject({
      level: 40,
      leftOut: { 401: refusals - REFUSAL_LINES_PER_WINDOW },
      msg: `${refusals - REFUSAL_LINES_PER_WINDOW} lines about refused requests left out: more than ${REFUSAL_LINES_PER_WINDOW} in 10 s`,
    });
  });
});

/** 60 connections, each writing 20,000 pipelined GETs without a key at once, and reading nothing. */
const ATTACKER = `
const net = require('node:net');
const port = Number(process.argv[1]);
const flood = 'GET /v1/pets HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n'.repeat(20000);
for (let n = 0; n < 60; n++) {
  const socket = net.connect(port, '127.0.0.1');
  socket.pause();
  socket.on('error', () => {});
  socket.once('connect', () => socket.write(flood));
}
setInterval(() => {}, 1000);
`;

/**
 * GET /health/live on a connection of its own, as an orchestrator's probe: its status, or the error that failed it.
 * It fails after the probe's timeout: 2 s (Kubernetes waits 1 s by default), scaled to this machine.
 */
function probe(port: number): Promise<number | string> {
  return new Promise((resolve) => {
    const request = get(
      { host: '127.0.0.1', port, path: '/health/live', agent: false, timeout: scaled(2_000) },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

function linesOf(service: ServiceProcess): Array<Record<string, any>> {
  return service
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, any>);
}
