// Where the bundled kubectl and helm live once extracted, and the versions the e2e suite expects.
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** e2e/ (this file compiles to e2e/dist/src/binaries/tools.js). */
export const e2eRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Git-ignored folder holding the extracted binaries; tests put it first on PATH. */
export const binDir = path.join(e2eRoot, '.bin');

export const kubectlPath = path.join(binDir, 'kubectl');
export const helmPath = path.join(binDir, 'helm');

export const expectedKubectlVersion = 'v1.32.3';
export const expectedHelmVersion = 'v3.17.2';

/** An environment whose PATH finds the bundled binaries first. */
export function envWithTools(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}`, ...extra };
}
