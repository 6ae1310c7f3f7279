// Starts the API test server on a loopback port with a kubeconfig in a temporary folder, and runs
// the real kubectl against it (asynchronously: the server answers from this same process).
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { ApiServer, type ApiServerOptions } from "../../src/apiserver/server.js";
import { kubeconfig } from "../../src/apiserver/kubeconfig.js";
import { envWithTools } from "../../src/binaries/tools.js";

const run = promisify(execFile);

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export class TestCluster {
  private constructor(
    readonly server: ApiServer,
    readonly url: string,
    readonly dir: string,
  ) {}

  static async start(options: ApiServerOptions = {}): Promise<TestCluster> {
    const server = new ApiServer(options);
    const url = await server.listen();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-kube-"));
    fs.writeFileSync(path.join(dir, "kubeconfig"), kubeconfig(url));
    return new TestCluster(server, url, dir);
  }

  async stop(): Promise<void> {
    await this.server.close();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  /** Runs kubectl; resolves with its exit code instead of throwing, so tests can assert errors. */
  async kubectl(args: string[], stdin?: string): Promise<KubectlResult> {
    const env = envWithTools({ KUBECONFIG: path.join(this.dir, "kubeconfig"), HOME: this.dir });
    const child = run("kubectl", ["--cache-dir", path.join(this.dir, "cache"), ...args], { env, encoding: "utf8" });
    child.child.stdin!.end(stdin ?? "");
    try {
      const { stdout, stderr } = await child;
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as { code?: number; stdout?: string; stderr?: string };
      return { code: typeof e.code === "number" ? e.code : 1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
    }
  }

  /** kubectl that must succeed; returns stdout. */
  async ok(args: string[], stdin?: string): Promise<string> {
    const r = await this.kubectl(args, stdin);
    if (r.code !== 0) throw new Error(`kubectl ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
    return r.stdout;
  }

  async json<T = any>(args: string[]): Promise<T> {
    return JSON.parse(await this.ok([...args, "-o", "json"])) as T;
  }
}

export const fixtures = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../../test/fixtures");

/** Polls until `check` returns true (the GC and controllers act right after a write). */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 10000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}
