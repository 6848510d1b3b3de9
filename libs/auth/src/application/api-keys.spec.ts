import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiKey } from '../domain/api-key';
import {
  ApiKeyNameTakenError,
  ApiKeyNotFoundError,
  ApiKeyRevokedError,
  ApiKeysUnavailableError,
  InvalidApiKeyNameError,
} from '../domain/api-key.errors';
import { ApiKeyRepository } from '../domain/api-key.repository';
import { ApiKeysService } from './api-keys.service';
import { AcceptedApiKeys } from './accepted-api-keys';
import { ConfiguredApiKeys } from './configured-api-keys';
import { LAST_USED_EVERY_MS, StoredApiKeys } from './stored-api-keys';

class InMemoryApiKeyRepository extends ApiKeyRepository {
  readonly keys: ApiKey[] = [];
  readonly usesRecorded: Array<{ name: string; at: number }> = [];

  async add(key: ApiKey): Promise<void> {
    if (this.keys.some((existing) => existing.name === key.name)) throw new ApiKeyNameTakenError(key.name);
    this.keys.push(key);
  }
  async list(): Promise<ApiKey[]> {
    return [...this.keys];
  }
  async active(): Promise<ApiKey[]> {
    return this.keys.filter((key) => !key.revokedAt);
  }
  async findByName(name: string): Promise<ApiKey | undefined> {
    return this.keys.find((key) => key.name === name);
  }
  async revoke(name: string, at: Date): Promise<void> {
    const index = this.keys.findIndex((key) => key.name === name && !key.revokedAt);
    if (index >= 0) this.keys[index] = { ...this.keys[index], revokedAt: at };
  }
  async setScopes(name: string, scopes: readonly string[]): Promise<void> {
    const index = this.keys.findIndex((key) => key.name === name && !key.revokedAt);
    if (index >= 0) this.keys[index] = { ...this.keys[index], scopes };
  }
  async recordUse(name: string, at: Date): Promise<void> {
    this.usesRecorded.push({ name, at: at.getTime() });
  }
}

const STALE_SECONDS = 120;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('ApiKeysService', () => {
  let repository: InMemoryApiKeyRepository;
  let service: ApiKeysService;
  const now = new Date('2026-11-23T10:00:00.000Z');

  beforeEach(() => {
    repository = new InMemoryApiKeyRepository();
    service = new ApiKeysService(repository, () => now);
  });

  it('issues a pst_ key of 256 secret bits and stores only its digest and public prefix', async () => {
    const { key, apiKey } = await service.create('team-a');
    expect(key).toMatch(/^pst_[0-9a-f]{12}[0-9a-f]{64}$/);
    expect(apiKey).toEqual({
      name: 'team-a',
      prefix: key.slice(0, 16),
      digest: sha256(key),
      scopes: ['*'],
      createdAt: now,
    });
    expect(repository.keys).toEqual([apiKey]);
    expect(JSON.stringify(repository.keys)).not.toContain(key.slice(16));
  });

  it('never issues the same key twice', async () => {
    const keys = await Promise.all(Array.from({ length: 50 }, (_, n) => service.create(`team-${n}`)));
    expect(new Set(keys.map(({ key }) => key)).size).toBe(50);
    expect(new Set(keys.map(({ apiKey }) => apiKey.prefix)).size).toBe(50);
  });

  it('refuses a name that is taken, even by a revoked key', async () => {
    await service.create('team-a');
    await service.revoke('team-a');
    await expect(service.create('team-a')).rejects.toThrow(new ApiKeyNameTakenError('team-a'));
  });

  it.each(['', 'has space', '-leading-dash', 'a'.repeat(65), 'team/a', 'équipe', 'API_KEYS#1'])(
    'refuses the name %j',
    async (name) => {
      await expect(service.create(name)).rejects.toBeInstanceOf(InvalidApiKeyNameError);
      expect(repository.keys).toEqual([]);
    },
  );

  it('revokes a key once, and says so when asked again', async () => {
    const { apiKey } = await service.create('team-a');
    expect(await service.revoke('team-a')).toEqual({ apiKey: { ...apiKey, revokedAt: now }, alreadyRevoked: false });
    expect(await service.revoke('team-a')).toEqual({ apiKey: { ...apiKey, revokedAt: now }, alreadyRevoked: true });
  });

  it('refuses to revoke a key nobody created', async () => {
    await expect(service.revoke('nobody')).rejects.toThrow(new ApiKeyNotFoundError('nobody'));
  });

  it('makes a key with the scopes given, changes them while it is active, and never once it is revoked', async () => {
    const { apiKey } = await service.create('dashboard', ['pets:read']);
    expect(apiKey.scopes).toEqual(['pets:read']);
    expect(await service.setScopes('dashboard', ['pets:read', 'store:read'])).toEqual({
      apiKey: { ...apiKey, scopes: ['pets:read', 'store:read'] },
      before: ['pets:read'],
    });
    expect(repository.keys[0].scopes).toEqual(['pets:read', 'store:read']);
    await service.revoke('dashboard');
    await expect(service.setScopes('dashboard', ['*'])).rejects.toThrow(new ApiKeyRevokedError('dashboard'));
    await expect(service.setScopes('nobody', ['*'])).rejects.toThrow(new ApiKeyNotFoundError('nobody'));
    expect(repository.keys[0].scopes).toEqual(['pets:read', 'store:read']);
  });
});

describe('StoredApiKeys', () => {
  let repository: InMemoryApiKeyRepository;
  let service: ApiKeysService;
  let clock: number;
  let stored: StoredApiKeys;
  const failures: unknown[] = [];

  beforeEach(() => {
    repository = new InMemoryApiKeyRepository();
    service = new ApiKeysService(repository);
    clock = 1_000_000;
    stored = new StoredApiKeys(
      repository,
      (error) => failures.push(error),
      STALE_SECONDS,
      () => clock,
    );
  });

  it('accepts the keys read at the last refresh, by name, and nothing else', async () => {
    const { key } = await service.create('team-a');
    expect(stored.verify(key)).toBeUndefined();
    await stored.refresh();
    expect(stored.verify(key)).toEqual({ principal: 'team-a', scopes: ['*'] });
    const wrongSecret = key.slice(0, 16) + (key[16] === '0' ? '1' : '0') + key.slice(17);
    expect(stored.verify(wrongSecret)).toBeUndefined();
    expect(stored.verify(`${key}0`)).toBeUndefined();
    expect(stored.verify(key.toUpperCase())).toBeUndefined();
    expect(stored.verify('pst_' + '0'.repeat(76))).toBeUndefined();
    expect(stored.verify('not-a-pst-key-0123456789')).toBeUndefined();
  });

  it('gives a request the scopes the key has as of the last refresh', async () => {
    const { key } = await service.create('dashboard', ['pets:read']);
    await stored.refresh();
    expect(stored.verify(key)).toEqual({ principal: 'dashboard', scopes: ['pets:read'] });
    await service.setScopes('dashboard', ['pets:*', 'store:read']);
    expect(stored.verify(key)).toEqual({ principal: 'dashboard', scopes: ['pets:read'] });
    await stored.refresh();
    expect(stored.verify(key)).toEqual({ principal: 'dashboard', scopes: ['pets:*', 'store:read'] });
  });

  it('stops accepting a key at the first refresh after it is revoked', async () => {
    const { key } = await service.create('team-a');
    await stored.refresh();
    await service.revoke('team-a');
    expect(stored.verify(key)).toEqual({ principal: 'team-a', scopes: ['*'] });
    await stored.refresh();
    expect(stored.verify(key)).toBeUndefined();
  });

  it('refuses a stored key as unavailable once the keys went unread for API_KEY_STALE_SECONDS; API_KEYS still work', async () => {
    const { key } = await service.create('team-a');
    await stored.refresh();
    const accepted = new AcceptedApiKeys(
      stored,
      new ConfiguredApiKeys([{ name: 'ci', key: 'configured-key-0123456789', scopes: ['pets:read'] }]),
    );
    clock += STALE_SECONDS * 1000;
    expect(accepted.verify(key)).toEqual({ principal: 'team-a', scopes: ['*'] });
    clock += 1;
    expect(() => accepted.verify(key)).toThrow(new ApiKeysUnavailableError(STALE_SECONDS));
    expect(() => accepted.verify('pst_' + '0'.repeat(76))).toThrow(ApiKeysUnavailableError);
    expect(accepted.verify('configured-key-0123456789')).toEqual({ principal: 'ci', scopes: ['pets:read'] });
    expect(accepted.verify('not-a-pst-key-0123456789')).toBeUndefined();
    await stored.refresh();
    expect(accepted.verify(key)).toEqual({ principal: 'team-a', scopes: ['*'] });
  });

  it('records "last used" at most once a minute per key, without the caller waiting', async () => {
    const a = await service.create('team-a');
    const b = await service.create('team-b');
    await stored.refresh();
    stored.verify(a.key);
    stored.verify(a.key);
    stored.verify(b.key);
    clock += LAST_USED_EVERY_MS - 1;
    stored.verify(a.key);
    clock += 1;
    stored.verify(a.key);
    stored.verify(a.key);
    await Promise.resolve();
    expect(repository.usesRecorded).toEqual([
      { name: 'team-a', at: 1_000_000 },
      { name: 'team-b', at: 1_000_000 },
      { name: 'team-a', at: 1_000_000 + LAST_USED_EVERY_MS },
    ]);
    expect(failures).toEqual([]);
  });

  it('together with API_KEYS: either kind of key is accepted, each known its own way', async () => {
    const { key } = await service.create('team-a');
    await stored.refresh();
    const accepted = new AcceptedApiKeys(
      stored,
      new ConfiguredApiKeys([{ name: 'ci', key: 'configured-key-0123456789', scopes: ['pets:read'] }]),
    );
    expect(accepted.verify(key)).toEqual({ principal: 'team-a', scopes: ['*'] });
    expect(accepted.verify('configured-key-0123456789')).toEqual({ principal: 'ci', scopes: ['pets:read'] });
    expect(accepted.verify('configured-key-012345678')).toBeUndefined();
  });
});
