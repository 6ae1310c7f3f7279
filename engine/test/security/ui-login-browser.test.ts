// The web interface's password sign-in in a real browser (Debian's Chromium, playwright-core) over
// HTTPS: the form asks for a password when the server authenticates its users, a wrong one shows the
// server's refusal, the right one opens the interface, and signing out returns to the form.

import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/chromium.js';
import { ServerProcess } from '../support/server-process.js';
import { makeTlsFiles, writePasswordFile, type TlsFiles } from '../support/tls-fixtures.js';
import { join } from 'node:path';

describe('web interface sign-in with a password, in Chromium', function () {
  this.timeout(120_000);
  let tls: TlsFiles;
  let server: ServerProcess;
  let browser: Browser;

  before(async () => {
    tls = makeTlsFiles();
    writePasswordFile(join(tls.dir, 'password.db'), { alice: 'alice browser password' });
    server = await ServerProcess.start(
      [
        '--https-enabled',
        'true',
        '--https-port',
        '0',
        '--https-certificate-file',
        tls.chainFile,
        '--https-key-file',
        tls.keyFile,
        '--authentication-types',
        'PASSWORD',
        '--password-file',
        join(tls.dir, 'password.db'),
      ],
      { ENGINE_SHARED_SECRET: 'ui login browser test' },
    );
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    tls?.remove();
  });

  it('asks for the password, refuses a wrong one, signs in with the right one and out again', async () => {
    // The test CA is not in Chromium's store: the certificate itself is checked by the other tests.
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    await page.goto(`https://127.0.0.1:${server.port}/ui/`);
    await page.waitForSelector('#login-password');
    await page.fill('#login-user', 'alice');
    await page.fill('#login-password', 'not the password');
    await page.click('button[type=submit]');
    expect(await (await page.waitForSelector('p.error')).textContent()).to.equal('Access Denied: Invalid credentials');
    await page.fill('#login-password', 'alice browser password');
    await page.click('button[type=submit]');
    await page.waitForSelector('header.nav');
    const cookie = (await context.cookies()).find((c) => c.name === 'engine_ui_token')!;
    expect({ httpOnly: cookie.httpOnly, secure: cookie.secure, sameSite: cookie.sameSite, path: cookie.path }).to.deep.equal({
      httpOnly: true,
      secure: true,
      sameSite: 'Strict',
      path: '/ui',
    });
    expect(await page.textContent('header.nav')).to.include('alice');
    await page.click('text=Sign out');
    await page.waitForSelector('#login-password');
    expect((await context.cookies()).some((c) => c.name === 'engine_ui_token')).to.equal(false);
    await context.close();
  });
});
