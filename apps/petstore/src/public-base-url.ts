import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { API_PREFIX, type AppConfig } from '@app/platform';

/**
 * The base address the startup line prints: `PUBLIC_BASE_URL` when it is set,
 * otherwise the address the server is bound to (with the real port when
 * `PORT=0`), which a developer can open as it is.
 */
export function publicBaseUrlOf(app: NestFastifyApplication, config: AppConfig): string {
  if (config.publicBaseUrl) return config.publicBaseUrl;
  const address = app.getHttpServer().address() as AddressInfo | null;
  if (!address) return `http://localhost:${config.port}${API_PREFIX}`;
  const host =
    address.family === 'IPv6'
      ? `[${address.address === '::' ? '::1' : address.address}]`
      : address.address === '0.0.0.0'
        ? '127.0.0.1'
        : address.address;
  return `http://${host}:${address.port}${API_PREFIX}`;
}
