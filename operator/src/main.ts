#!/usr/bin/env node
// engine-operator: runs EngineCluster resources. Takes the leader Lease (unless told not to), then
// reconciles from watches until SIGTERM, when it finishes the reconciles under way and gives the
// Lease up. Logs are JSON lines (pino).
import { pino } from 'pino';
import { Controller } from './controller/controller.js';
import { startHealthServer } from './health.js';
import { Kube } from './kube/clients.js';
import { EventRecorder } from './kube/events.js';
import { LeaderElector } from './kube/leader-election.js';
import { parseOptions, usage, UsageError, type OperatorOptions } from './options.js';

async function run(options: OperatorOptions): Promise<void> {
  const logger = pino({ level: options.logLevel, base: { component: 'engine-operator' } });
  const kube = Kube.fromEnvironment();
  const events = new EventRecorder(kube, logger, options.identity);
  const controller = new Controller(kube, events, logger, options);
  const elector = options.leaderElection
    ? new LeaderElector(
        kube,
        {
          namespace: options.leaseNamespace,
          name: options.leaseName,
          identity: options.identity,
          leaseDurationSeconds: options.leaseDurationSeconds,
        },
        logger,
      )
    : undefined;
  let started = false;
  let stopping = false;
  const health = options.healthAddress ? await startHealthServer(options.healthAddress, () => !stopping) : undefined;

  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping');
    if (started) await controller.stop();
    await elector?.release();
    health?.close();
    process.exit(code);
  };
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGINT', () => void stop(0));

  logger.info(
    { watchNamespace: options.watchNamespace ?? '(all)', identity: options.identity, leaderElection: options.leaderElection },
    'engine-operator starting',
  );
  if (elector) {
    await elector.acquire();
    elector.keepRenewing(() => {
      logger.error('lost the leader lease: exiting so that a new replica takes over');
      void stop(1);
    });
  }
  if (stopping) return;
  started = true;
  await controller.start();
  logger.info('watching EngineClusters');
}

let options: OperatorOptions | 'help';
try {
  options = parseOptions(process.argv.slice(2), process.env);
} catch (err) {
  if (!(err instanceof UsageError)) throw err;
  process.stderr.write(`engine-operator: ${err.message}\n${usage}`);
  process.exit(2);
}
if (options === 'help') process.stdout.write(usage);
else
  run(options).catch((err: unknown) => {
    process.stderr.write(`engine-operator: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
