import { TEST_API_KEY } from './test-app';

/** fetch with the test key, for the suites that talk to a separately running service. */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  key: string = TEST_API_KEY,
): Promise<{ status: number; headers: Headers; body: unknown }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}
