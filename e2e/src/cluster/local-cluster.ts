// The whole test cluster in one process: the API test server, the scheduler, the process kubelet,
// the controllers (HPA, ReplicaSet, Deployment, Endpoints/EndpointSlices), metrics-server and the Service proxy, all on
// the loopback addresses of one ClusterNetwork, with a kubeconfig for kubectl, helm and clients.
import { ClusterDns } from '../dns/cluster-dns.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiServer, type ApiServerOptions } from '../apiserver/server.js';
import { kubeconfig } from '../apiserver/kubeconfig.js';
import { ClusterNetwork } from '../net/network.js';
import { Kubelet } from '../kubelet/kubelet.js';
import type { BackoffPolicy } from '../kubelet/container-runner.js';
import { Scheduler } from '../controllers/scheduler.js';
import { ReplicaSetController } from '../controllers/replicaset.js';
import { DeploymentController } from '../controllers/deployment.js';
import { EndpointsController } from '../controllers/endpoints.js';
import { ServiceProxy } from '../proxy/service-proxy.js';
import { MetricsServer } from '../apiserver/metrics-server.js';
import { HorizontalPodAutoscalerController } from '../controllers/horizontal.js';
import { Objects } from './objects.js';

export interface LocalClusterOptions extends ApiServerOptions {
  /** Folder for the kubeconfig and the pods' folders; a new temporary one by default (removed on stop). */
  stateDir?: string;
  nodeName?: string;
  /** The kubelet's restart backoff (10 s doubling to 5 min, as the real one, unless tests shorten it). */
  backoff?: Partial<BackoffPolicy>;
  /** metrics-server's --metric-resolution: how often container usage is sampled (1 s; 15 s on a real cluster). */
  metricResolutionMs?: number;
  /** kube-controller-manager's --horizontal-pod-autoscaler-sync-period (1 s; 15 s on a real cluster). */
  hpaSyncPeriodMs?: number;
  /** --horizontal-pod-autoscaler-downscale-stabilization: scale-down window of HPAs without a behavior (300 s, as the real one). */
  hpaDownscaleStabilizationMs?: number;
}

interface Component {
  stop(): void | Promise<void>;
}

export class LocalCluster {
  private constructor(
    readonly server: ApiServer,
    readonly url: string,
    readonly network: ClusterNetwork,
    readonly stateDir: string,
    readonly kubeconfigPath: string,
    readonly objects: Objects,
    private readonly components: Component[],
    private readonly ownsStateDir: boolean,
  ) {}

  static async start(options: LocalClusterOptions = {}): Promise<LocalCluster> {
    const network = options.network ?? new ClusterNetwork();
    const server = new ApiServer({ ...options, network });
    const url = await server.listen();
    const ownsStateDir = options.stateDir === undefined;
    const stateDir = options.stateDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'kube-test-cluster-'));
    fs.mkdirSync(stateDir, { recursive: true });
    const kubeconfigPath = path.join(stateDir, 'kubeconfig');
    fs.writeFileSync(kubeconfigPath, kubeconfig(url));
    const objects = new Objects(server.api);
    const kubelet = new Kubelet(objects, {
      nodeName: options.nodeName ?? 'kube-test-node',
      network,
      stateDir,
      kubeconfigPath,
      backoff: options.backoff,
    });
    server.podLogs = (pod, q, req, res) => kubelet.podLog(pod, q, req, res);
    const metrics = new MetricsServer(kubelet, options.metricResolutionMs ?? 1000);
    server.serveMetrics(metrics);
    const hpa = new HorizontalPodAutoscalerController(objects, metrics, {
      syncPeriodMs: options.hpaSyncPeriodMs ?? 1000,
      downscaleStabilizationMs: options.hpaDownscaleStabilizationMs ?? 300_000,
    });
    // Stopped in this order: nothing recreates pods while the kubelet kills them.
    const components = [
      new ClusterDns(objects, stateDir),
      new ServiceProxy(objects, network),
      hpa,
      metrics,
      new DeploymentController(objects),
      new ReplicaSetController(objects),
      new EndpointsController(objects),
      new Scheduler(objects),
      kubelet,
    ];
    for (const c of components) c.start();
    return new LocalCluster(server, url, network, stateDir, kubeconfigPath, objects, components, ownsStateDir);
  }

  /** Stops the components (every pod process is killed) and the server. */
  async stop(): Promise<void> {
    for (const c of this.components) await c.stop();
    await this.server.close();
    if (this.ownsStateDir) fs.rmSync(this.stateDir, { recursive: true, force: true });
  }
}
