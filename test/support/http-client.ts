import { JSON_CONTENT_TYPE, TEST_API_KEY } from './test-app';

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

/** Every pet a running service lists, page after page by its `Link: rel="next"`, each page checked as a 200 in JSON. */
export async function listAllPets<Pet>(baseUrl: string, key: string = TEST_API_KEY, limit = 100): Promise<Pet[]> {
  const pets: Pet[] = [];
  for (let path: string | undefined = `/v1/pets?limit=${limit}`; path;) {
    const page = await call(baseUrl, 'GET', path, undefined, key);
    if (page.status !== 200 || page.headers.get('content-type') !== JSON_CONTENT_TYPE) {
      throw new Error(`GET ${path}: ${page.status} ${page.headers.get('content-type')} ${JSON.stringify(page.body)}`);
    }
    pets.push(...(page.body as Pet[]));
    path = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
  }
  return pets;
}
