import { TEST_API_KEY } from './test-app';
import { scaled } from './wait-for';

export interface RetryAnswer {
  status?: number;
  text?: string;
  error?: string;
}

/** One POST /v1/pets with an Idempotency-Key, recording whatever came back (a connection error included). */
export async function createWithKey(baseUrl: string, key: string, body: object): Promise<RetryAnswer> {
  try {
    const response = await fetch(`${baseUrl}/v1/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(scaled(10_000)),
    });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** Every 201 carries the same bytes, and every other answer is a 409 or a lost connection. */
export function sameAnswerOr409(answers: RetryAnswer[]): boolean {
  const created = answers.filter((answer) => answer.status === 201);
  return (
    created.every((answer) => answer.text === created[0]?.text) &&
    answers.every((answer) => answer.status === 201 || answer.status === 409 || answer.error !== undefined)
  );
}
