// The web interface in a real browser (issue 18): Debian's Chromium, driven by playwright-core,
// against a coordinator and two workers running as processes, with queries run by a real client.
// The overview shows the workers and the running queries; the list shows the queries (a non-admin
// only their own); a row opens its detail with the SQL, stages and tasks; killing a running query
// from the page fails it with USER_CANCELED for its client; an admin drains a worker from the page,
// which shows ISOLATING then ISOLATED as the worker's own GET /v1/info/state says; a non-admin gets
// no such button and a forged request gets 403. A hidden tab sends no refreshes. Every figure has
// its explanation. Screenshots of each
// page (light, dark, phone-sized) go to engine/test-reports/ui/ for review, with the first page's
// JavaScript size, which must stay under 80 KB gzipped.

import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventually, withCluster } from '../cluster/cluster-fixture.js';
import { launchChromium, SCREENSHOTS_DIR } from '../support/chromium.js';
import { follow, getJson, postStatement, runStatement, type Exchange } from '../support/statement-http.js';

const SECRET = 'ui-browser-test';
const ALICE = { 'X-Engine-User': 'alice' };
const BOB = { 'X-Engine-User': 'bob' };
/** A query whose client reads nothing: its buffers fill and it stays RUNNING, holding tasks on every worker, with little CPU. */
const STALLED = 'SELECT * FROM tpch.sf1.lineitem';
const FIRST_PAGE_JS_BUDGET_BYTES = 80 * 1024;

describe('the web interface in Chromium', function () {
  this.timeout(300_000);
  const cluster = withCluster(2, { sharedSecret: SECRET, coordinatorArgs: ['--admin-users', 'admin'] });
  let browser: Browser;
  let finishedQuery: string;
  let finishedSql: string;
  let bobsQuery: Exchange;

  before(async () => {
    finishedSql = 'SELECT l_returnflag, count(*) AS lines FROM tpch.tiny.lineitem GROUP BY l_returnflag';
    finishedQuery = (await runStatement(cluster.coordinator.uri, finishedSql, ALICE)).final.id;
    await runStatement(cluster.coordinator.uri, 'SELECT * FROM tpch.tiny.no_such_table', ALICE);
    await runStatement(cluster.coordinator.uri, 'SELECT count(*) FROM tpch.tiny.orders', BOB);
    bobsQuery = await postStatement(cluster.coordinator.uri, STALLED, BOB);
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
  });

  async function signedIn(
    user: string,
    options: Parameters<Browser['newContext']>[0] = {},
  ): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
    const page = await context.newPage();
    page.on('pageerror', (e) => {
      throw new Error(`page error: ${e.message}`);
    });
    await page.goto(`${cluster.coordinator.uri}/`);
    await page.fill('#login-user', user);
    await page.click('button[type=submit]');
    await page.waitForSelector('header.nav');
    return { context, page };
  }

  async function screenshot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: join(SCREENSHOTS_DIR, `${name}.png`), fullPage: true });
  }

  it('overview: the workers and the running queries, each figure explained, within the JavaScript budget', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const scripts: Array<{ url: string; bytes: number }> = [];
    page.on('requestfinished', (request) => {
      if (request.resourceType() !== 'script') return;
      void request.sizes().then((sizes) => scripts.push({ url: request.url(), bytes: sizes.responseBodySize }));
    });
    await page.goto(`${cluster.coordinator.uri}/`);
    await page.fill('#login-user', 'admin');
    await page.click('button[type=submit]');
    const activeWorkers = page.locator('[data-metric="Active workers"] .tile-value');
    await expectText(activeWorkers, '2');
    await expectText(page.locator('.node-state-count[data-state="ACTIVE"]'), /^ACTIVE\s+3$/);
    await expectText(page.locator('[data-metric="Running queries"] .tile-value'), /^[1-9]/);
    await page.waitForSelector(`tr[data-query-id="${bobsQuery.body.id}"]`);
    // Every figure says what it measures.
    const labels = await page.locator('.metric-label').evaluateAll((els) => els.map((e) => [e.textContent, e.getAttribute('title')]));
    expect(labels.length).to.be.greaterThan(10);
    for (const [label, title] of labels) expect(title, `tooltip of ${label}`).to.be.a('string').and.have.length.greaterThan(20);
    await page.waitForSelector('.sparkline canvas');
    await page.waitForLoadState('networkidle');
    const total = scripts.reduce((sum, s) => sum + s.bytes, 0);
    await writeFile(
      join(SCREENSHOTS_DIR, 'first-page-js.txt'),
      `${scripts.map((s) => `${s.bytes}\t${new URL(s.url).pathname}`).join('\n')}\n${total}\ttotal (gzipped, as sent)\n`,
    );
    expect(scripts.map((s) => new URL(s.url).pathname)).to.not.include('/ui/vendor/dagre.mjs');
    expect(total).to.be.greaterThan(0).and.below(FIRST_PAGE_JS_BUDGET_BYTES);
    await screenshot(page, 'overview');
    await context.close();
  });

  it('query list: a non-admin sees only their own queries; a row opens the detail with its SQL, stages and tasks', async () => {
    const { context, page } = await signedIn('alice');
    await page.click('nav a[href="/ui/queries"]');
    await page.waitForSelector(`tr[data-query-id="${finishedQuery}"]`);
    const users = await page.locator('table.queries tbody tr td:nth-child(3)').allTextContents();
    expect(users.length).to.be.at.least(2);
    expect(new Set(users)).to.deep.equal(new Set(['alice']));
    expect(await page.locator(`tr[data-query-id="${bobsQuery.body.id}"]`).count()).to.equal(0);
    // Filters live in the URL.
    await page.click('button[data-state-filter="failed"]');
    await page.waitForURL(/\/ui\/queries\?state=failed$/);
    await expectText(page.locator('table.queries tbody tr td:nth-child(2)').first(), 'FAILED');
    await screenshot(page, 'queries-failed-alice');
    await page.click('button[data-state-filter="failed"]');
    await page.fill('input.search', 'l_returnflag');
    await page.waitForURL(/search=l_returnflag/);
    await eventually('one query matching l_returnflag', async () =>
      (await page.locator('table.queries tbody tr').count()) === 1 ? true : undefined,
    );
    expect(await page.locator(`tr[data-query-id="${finishedQuery}"]`).count()).to.equal(1);
    await screenshot(page, 'queries');

    await page.click(`tr[data-query-id="${finishedQuery}"] a`);
    await page.waitForURL(new RegExp(`/ui/query/${finishedQuery}$`));
    await page.waitForSelector('.overview-grid');
    await screenshot(page, 'query-overview');
    await page.click('a[data-tab="sql"]');
    await expectText(page.locator('[data-testid="sql-text"]'), finishedSql);
    await page.click('a[data-tab="stages"]');
    await page.waitForURL(/\/stages$/);
    const stages = await page.locator('section.stage').count();
    expect(stages).to.be.at.least(3);
    const taskNodes = await page.locator('table.tasks tbody tr td:nth-child(3)').allTextContents();
    expect(taskNodes).to.include.members(['worker-1', 'worker-2']);
    await screenshot(page, 'query-stages');
    await page.click('a[data-tab="plan"]');
    await page.waitForSelector('svg.plan .plan-node');
    expect(await page.locator('svg.plan .fragment').count()).to.equal(stages);
    expect(await page.locator('svg.plan .edge.exchange').count()).to.be.at.least(2);
    expect(await page.locator('svg.plan .plan-node .node-stats').first().textContent()).to.match(/rows/);
    await screenshot(page, 'query-plan');
    await page.click('a[data-tab="timeline"]');
    await page.waitForSelector('svg.timeline .timeline-row');
    await screenshot(page, 'query-timeline');
    await page.click('a[data-tab="json"]');
    const json = JSON.parse((await page.locator('[data-testid="query-json"]').textContent())!) as { queryId: string };
    expect(json.queryId).to.equal(finishedQuery);
    // A stable URL per tab: opened directly, it shows the same tab.
    await page.goto(`${cluster.coordinator.uri}/ui/query/${finishedQuery}/stages`);
    await page.waitForSelector('section.stage');
    await context.close();
  });

  it('killing a running query from the page fails it with USER_CANCELED for its client', async () => {
    const running = await postStatement(cluster.coordinator.uri, STALLED, ALICE);
    const { context, page } = await signedIn('alice');
    await page.goto(`${cluster.coordinator.uri}/ui/query/${running.body.id}`);
    await page.click('button[data-action="kill"]');
    await page.click('dialog button[data-action="confirm"]');
    await expectText(page.locator('.title-row .badge'), 'FAILED');
    await screenshot(page, 'query-killed');
    const client = await follow(running, ALICE);
    expect(client.final.error?.errorName).to.equal('USER_CANCELED');
    await context.close();
  });

  it("an admin drains a worker from the page: ISOLATING, then ISOLATED once its work ended, as the worker's own state says", async () => {
    const worker = cluster.worker('worker-1');
    const { context, page } = await signedIn('admin');
    await page.click('nav a[href="/ui/workers"]');
    const row = page.locator('tr[data-node-id="worker-1"]');
    await expectText(row.locator('td:nth-child(2) .badge'), 'ACTIVE');
    await row.locator('button[data-move="ISOLATING"]').click();
    await expectText(page.locator('dialog h2'), 'Move worker-1 to ISOLATING?');
    await page.click('dialog button[data-action="confirm"]');
    // Bob's stalled query holds a task on the worker, so it stays ISOLATING.
    await expectText(row.locator('td:nth-child(2) .badge'), 'ISOLATING');
    expect(await getJson<string>(`${worker.uri}/v1/info/state`).then((r) => r.body)).to.equal('ISOLATING');
    await expectText(row.locator('.drain-progress'), /task/);
    await screenshot(page, 'workers-draining');
    // The query ends; the worker has nothing left and isolates itself.
    await fetch(`${cluster.coordinator.uri}/v1/query/${bobsQuery.body.id}`, { method: 'DELETE', headers: BOB });
    await expectText(row.locator('td:nth-child(2) .badge'), 'ISOLATED');
    expect(await getJson<string>(`${worker.uri}/v1/info/state`).then((r) => r.body)).to.equal('ISOLATED');
    await screenshot(page, 'workers-isolated');
    await row.locator('button[data-move="ACTIVE"]').click();
    await page.click('dialog button[data-action="confirm"]');
    await expectText(row.locator('td:nth-child(2) .badge'), 'ACTIVE');
    expect(await getJson<string>(`${worker.uri}/v1/info/state`).then((r) => r.body)).to.equal('ACTIVE');
    await page.click('tr[data-node-id="worker-2"] a');
    await page.waitForSelector('.charts .chart canvas');
    await screenshot(page, 'worker-detail');
    await context.close();
  });

  it('offers a non-admin no node moves, and refuses a forged one with 403', async () => {
    const { context, page } = await signedIn('alice');
    await page.click('nav a[href="/ui/workers"]');
    await page.waitForSelector('tr[data-node-id="worker-2"]');
    expect(await page.locator('button[data-move]').count()).to.equal(0);
    const forged = await page.evaluate(async () => {
      const response = await fetch('/ui/api/nodes/worker-2/state', {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify('SHUTTING_DOWN'),
      });
      return { status: response.status, body: (await response.json()) as { error: { errorName: string } } };
    });
    expect(forged.status).to.equal(403);
    expect(forged.body.error.errorName).to.equal('PERMISSION_DENIED');
    expect(await getJson<string>(`${cluster.worker('worker-2').uri}/v1/info/state`).then((r) => r.body)).to.equal('ACTIVE');
    await screenshot(page, 'workers-non-admin');
    await context.close();
  });

  it('stops refreshing while the tab is hidden, and reads again when it is shown', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    // The page's timers run on a clock the test moves: no waiting, no timing.
    await page.clock.install();
    await page.goto(`${cluster.coordinator.uri}/`);
    await page.fill('#login-user', 'admin');
    await page.click('button[type=submit]');
    await page.click('nav a[href="/ui/workers"]');
    await page.waitForSelector('tr[data-node-id="worker-1"]');
    let reads = 0;
    page.on('requestfinished', (request) => {
      if (new URL(request.url()).pathname === '/ui/api/nodes') reads++;
    });
    await page.clock.runFor(10_000);
    await eventually('a refresh', async () => (reads > 0 ? true : undefined));
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await page.waitForLoadState('networkidle');
    const whileVisible = reads;
    await page.clock.runFor(60_000);
    await page.waitForLoadState('networkidle');
    expect(reads, 'reads while hidden').to.equal(whileVisible);
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await eventually('a read once shown', async () => (reads > whileVisible ? true : undefined));
    await context.close();
  });

  it('follows a dark browser theme and fits a phone-sized screen', async () => {
    const dark = await signedIn('admin', { colorScheme: 'dark' });
    await dark.page.waitForSelector('.tiles');
    const background = await dark.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(luminance(background)).to.be.below(0.2);
    await screenshot(dark.page, 'overview-dark');
    await dark.context.close();

    const phone = await signedIn('admin', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await phone.page.waitForSelector('.tiles');
    const pages: Array<[string, string]> = [
      ['overview', '/ui/'],
      ['queries', '/ui/queries'],
      ['workers', '/ui/workers'],
      ['query', `/ui/query/${finishedQuery}`],
    ];
    for (const [name, path] of pages) {
      await phone.page.goto(`${cluster.coordinator.uri}${path}`);
      await phone.page.waitForSelector('main.page section');
      const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `horizontal overflow of ${path}`).to.be.at.most(0);
      await screenshot(phone.page, `phone-${name}`);
    }
    await phone.context.close();
  });
});

/** Waits until the locator's text matches (the page refreshes on its own schedule). */
async function expectText(locator: ReturnType<Page['locator']>, expected: string | RegExp): Promise<void> {
  await eventually(
    `text ${String(expected)}`,
    async () => {
      const text = (await locator.first().textContent({ timeout: 1000 }))?.trim() ?? '';
      return (typeof expected === 'string' ? text === expected : expected.test(text)) ? true : undefined;
    },
    30_000,
  );
}

/** Relative luminance (0 black .. 1 white) of a CSS rgb() colour. */
function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+/g) ?? ['0', '0', '0']).slice(0, 3).map((c) => Number(c) / 255);
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
