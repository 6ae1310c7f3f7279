// What a container image means to the process kubelet: there is no container runtime, so each
// image this repository builds maps to the program it would hold, run as a local process. An image
// is an entrypoint and a default command (ENTRYPOINT and CMD), the executables it ships (names a
// command may use, e.g. `engine`), and its environment (ENV).
//   - a name containing "engine-operator": the operator, node operator/dist/src/main.js
//   - a name containing "engine": the engine CLI, node engine/dist/src/cli/main.js, CMD ["server"];
//     it binds the pod's IP (ENGINE_HTTP_HOST), as a container binds its own network namespace
//   - (both run with dns/lookup-hook.js preloaded: the cluster's .svc names resolve, as in a pod)
//   - busybox, alpine, debian, ubuntu, bash: a shell image whose commands are the machine's own
//     (/bin/sh, sleep, ...), CMD ["sh"]
// Anything else cannot be "pulled": the container waits with ErrImagePull / ImagePullBackOff.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root (this file compiles to e2e/dist/src/kubelet/images.js). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

export interface Image {
  name: string;
  entrypoint: string[];
  cmd: string[];
  /** Executables of the image by name: the host argv that runs each. */
  binaries: Record<string, string[]>;
  env: (podIp: string) => Record<string, string>;
}

export type ImageLookup = { image: Image } | { error: string };

const shellImages = new Set(['busybox', 'alpine', 'debian', 'ubuntu', 'bash']);

/** The repository part of a reference: "ghcr.io/x/engine:1.0" -> "ghcr.io/x/engine". */
export function imageRepository(reference: string): string {
  const noDigest = reference.split('@')[0];
  const lastSlash = noDigest.lastIndexOf('/');
  const colon = noDigest.lastIndexOf(':');
  return colon > lastSlash ? noDigest.slice(0, colon) : noDigest;
}

/** Preloaded into the image's Node programs: .svc names resolve through the cluster DNS (dns/lookup-hook.ts). */
const dnsHook = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), '../dns/lookup-hook.js')).href;

function nodeProgram(name: string, script: string, cmd: string[], env: Image['env'], root: string): ImageLookup {
  const file = path.join(root, script);
  if (!fs.existsSync(file))
    return {
      error: `the process kubelet runs this image as "node ${script}", which does not exist in ${root}: build it first (make build)`,
    };
  const argv = [process.execPath, '--import', dnsHook, file];
  return { image: { name, entrypoint: [name], cmd, binaries: { [name]: argv }, env } };
}

export function lookupImage(reference: string, root = repoRoot): ImageLookup {
  const repository = imageRepository(reference);
  const base = repository.slice(repository.lastIndexOf('/') + 1);
  if (repository.includes('engine-operator')) return nodeProgram('engine-operator', 'operator/dist/src/main.js', [], () => ({}), root);
  if (repository.includes('engine'))
    return nodeProgram('engine', 'engine/dist/src/cli/main.js', ['server'], (podIp) => ({ ENGINE_HTTP_HOST: podIp }), root);
  if (shellImages.has(base)) return { image: { name: base, entrypoint: [], cmd: ['sh'], binaries: {}, env: () => ({}) } };
  return {
    error: `rpc error: code = NotFound desc = failed to pull and unpack image "${reference}": the process kubelet knows no such image (it runs images named *engine*, *engine-operator*, busybox, alpine, debian, ubuntu or bash)`,
  };
}

/**
 * The process to start, as a container runtime builds it: `command` replaces the entrypoint and
 * `args` the default command. The first word is the image's own executable when it names one
 * (by base name, so /usr/local/bin/engine works too), else a program of the machine.
 */
export function containerArgv(image: Image, command: string[] | undefined, args: string[] | undefined): string[] {
  const words = command?.length ? [...command, ...(args ?? [])] : [...image.entrypoint, ...(args ?? image.cmd)];
  return resolveExecutable(image, words);
}

/** An exec probe's or hook's command inside the container: the same lookup of the first word. */
export function resolveExecutable(image: Image, words: string[]): string[] {
  if (words.length === 0) return words;
  const own = image.binaries[path.basename(words[0])];
  return own ? [...own, ...words.slice(1)] : words;
}
