import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app';
import { scaled } from './support/wait-for';

/** Debian's Chromium (`apt-get install -y chromium`; .ci/run installs it), or the one PETSTORE_TEST_CHROMIUM names. */
const CHROMIUM = process.env.PETSTORE_TEST_CHROMIUM ?? '/usr/bin/chromium';
const skipReason = existsSync(CHROMIUM)
  ? undefined
  : `no Chromium at ${CHROMIUM}: apt-get install -y chromium, or set PETSTORE_TEST_CHROMIUM`;

/**
 * The docs page (Swagger UI at /docs) in a real headless browser, as a reader opens it: every operation of the
 * document is listed, a beta operation shows its level (the `x-stability` extension) and its promise, and each
 * operation the scope a key needs for it (`x-scope`).
 */
describe.skipIf(skipReason)(`the docs page in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let t: TestApp;
  let browser: Browser;
  let docs: string;

  beforeAll(async () => {
    t = await startTestApp();
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    docs = `http://127.0.0.1:${port}/docs`;
    const { launch } = await import('puppeteer-core');
    browser = await launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--headless=new',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
  }, scaled(60_000));
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('lists every operation, and shows a beta operation as beta, and the scope each needs', async () => {
    const page = await browser.newPage();
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(String(error)));
    await page.goto(docs);
    await page.waitForSelector('#operations-store-placeOrder', { timeout: scaled(20_000) });
    const operations = await page.$$eval('.opblock', (blocks) => blocks.map((block) => block.id).sort());
    // The shipped modules' (a module a test generates adds its own).
    expect(operations.filter((id) => /^operations-(pets|store)-/.test(id))).toEqual([
      'operations-pets-createPet',
      'operations-pets-getPet',
      'operations-pets-listPets',
      'operations-store-approveOrder',
      'operations-store-deleteOrder',
      'operations-store-deliverOrder',
      'operations-store-getInventory',
      'operations-store-getOrderById',
      'operations-store-listOrders',
      'operations-store-placeOrder',
    ]);

    await page.click('#operations-store-placeOrder .opblock-summary-control');
    await page.waitForSelector('#operations-store-placeOrder .opblock-description-wrapper', {
      timeout: scaled(10_000),
    });
    const shown = await page.$eval(
      '#operations-store-placeOrder',
      (block) => (block as unknown as { innerText: string }).innerText,
    );
    expect(shown).toContain('Beta. Complete and supported, but it may still change in a minor release of the API');
    // The extension, as Swagger UI lists an operation's extensions: its name, and its value as JSON.
    expect(shown).toMatch(/x-stability\s+"beta"/);
    // And the scope a key needs for it (issue 55).
    expect(shown).toMatch(/x-scope\s+"store:write"/);

    await page.click('#operations-pets-listPets .opblock-summary-control');
    await page.waitForSelector('#operations-pets-listPets .opblock-description-wrapper', { timeout: scaled(10_000) });
    const stable = await page.$eval(
      '#operations-pets-listPets',
      (block) => (block as unknown as { innerText: string }).innerText,
    );
    expect(stable).not.toContain('x-stability');
    expect(stable).toMatch(/x-scope\s+"pets:read"/);
    expect(stable).not.toContain('Beta.');
    expect(failures).toEqual([]);
  });
});
