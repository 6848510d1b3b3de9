import { Agent, request } from 'node:http';
import { TEST_API_KEY } from './test-app';

export interface WriteOutcome {
  status?: number;
  body?: { id: number; name: string; categoryId: number; status?: string };
  error?: string;
}

/**
 * Concurrent writers creating pets (or, with `path`, what that route creates, from `bodyOf`'s bodies) over keep-alive
 * connections until stopped (or until the service goes away), recording every outcome.
 */
export function startWriters(
  baseUrl: string,
  {
    concurrency,
    prefix,
    path = '/v1/pets',
    bodyOf = (name, n) => ({ name, categoryId: n, status: 'pending' }),
  }: { concurrency: number; prefix: string; path?: string; bodyOf?: (name: string, n: number) => object },
) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const outcomes: WriteOutcome[] = [];
  let running = true;
  let counter = 0;
  const post = (name: string, n: number) =>
    new Promise<WriteOutcome>((resolve) => {
      const body = JSON.stringify(bodyOf(name, n));
      const req = request(
        `${baseUrl}${path}`,
        {
          method: 'POST',
          agent,
          headers: {
            authorization: `Bearer ${TEST_API_KEY}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode, body: text ? JSON.parse(text) : undefined }));
          res.on('error', (error) => resolve({ error: error.message }));
        },
      );
      req.on('error', (error) => resolve({ error: (error as NodeJS.ErrnoException).code ?? error.message }));
      req.end(body);
    });
  const loops = Array.from({ length: concurrency }, async () => {
    while (running) {
      const n = counter++;
      const outcome = await post(`${prefix}-${n}`, n);
      outcomes.push(outcome);
      if (outcome.error) await new Promise((wait) => setTimeout(wait, 20));
    }
  });
  return {
    outcomes,
    acknowledged: () => outcomes.filter((outcome) => outcome.status === 201).map((outcome) => outcome.body!),
    async stop() {
      running = false;
      await Promise.all(loops);
      agent.destroy();
    },
  };
}
