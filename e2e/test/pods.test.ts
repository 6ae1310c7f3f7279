import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { TestCluster, eventually } from './support/cluster.js';

const configAndSecret = `apiVersion: v1
kind: ConfigMap
metadata: {name: app-config}
data: {greeting: hello, "app.conf": "mode=test\\n"}
---
apiVersion: v1
kind: Secret
metadata: {name: app-secret}
stringData: {password: s3cret, TOKEN: abc}
`;

const envPod = `apiVersion: v1
kind: Pod
metadata: {name: envpod, labels: {app: envpod}}
spec:
  restartPolicy: Never
  containers:
  - name: main
    image: busybox:1.36
    command: [sh, -c]
    args: ["echo greeting=$GREETING password=$PASSWORD token=$SECRET_TOKEN ip=$POD_IP name=$POD_NAME ns=$POD_NAMESPACE combined=$(COMBINED); cat /etc/app/app.conf; cat /etc/secret/password; echo"]
    env:
    - {name: GREETING, valueFrom: {configMapKeyRef: {name: app-config, key: greeting}}}
    - {name: PASSWORD, valueFrom: {secretKeyRef: {name: app-secret, key: password}}}
    - {name: POD_IP, valueFrom: {fieldRef: {fieldPath: status.podIP}}}
    - {name: POD_NAME, valueFrom: {fieldRef: {fieldPath: metadata.name}}}
    - {name: POD_NAMESPACE, valueFrom: {fieldRef: {fieldPath: metadata.namespace}}}
    - {name: COMBINED, value: "$(POD_NAME)@$(POD_NAMESPACE)"}
    envFrom: [{secretRef: {name: app-secret}, prefix: SECRET_}]
    volumeMounts:
    - {name: config, mountPath: /etc/app}
    - {name: secret, mountPath: /etc/secret}
  volumes:
  - {name: config, configMap: {name: app-config}}
  - {name: secret, secret: {secretName: app-secret}}
`;

const readyPod = (name: string) => `apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  terminationGracePeriodSeconds: 2
  containers:
  - name: main
    image: busybox
    command: [sh, -c, "echo one; echo two; echo three; touch /work/ready; exec sleep 600"]
    readinessProbe: {exec: {command: [cat, /work/ready]}, periodSeconds: 1}
    volumeMounts: [{name: work, mountPath: /work}]
  volumes: [{name: work, emptyDir: {}}]
`;

describe('pods on the process kubelet, driven by the real kubectl', function () {
  this.timeout(60000);
  let cluster: TestCluster;
  before(async () => (cluster = await TestCluster.startWithNode()));
  after(async () => cluster?.stop());

  it('runs a container with env from ConfigMaps, Secrets and the downward API, and mounted ConfigMap and Secret files', async () => {
    await cluster.ok(['apply', '-f', '-'], configAndSecret + '---\n' + envPod);
    await cluster.ok(['wait', '--for=jsonpath={.status.phase}=Succeeded', 'pod/envpod', '--timeout=20s']);
    const pod = await cluster.json(['get', 'pod', 'envpod']);
    const ip: string = pod.status.podIP;
    expect(ip).to.match(/^127\.\d+\.\d+\.\d+$/);
    expect(ip).to.not.equal('127.0.0.1');
    const logs = await cluster.ok(['logs', 'envpod']);
    const lines = logs.trim().split('\n');
    expect(lines[0]).to.equal(`greeting=hello password=s3cret token=abc ip=${ip} name=envpod ns=default combined=envpod@default`);
    expect(lines.slice(1, 3)).to.deep.equal(['mode=test', 's3cret']);
    const [main] = pod.status.containerStatuses;
    expect(main.state.terminated).to.include({ exitCode: 0, reason: 'Completed' });
    expect(pod.status.conditions.find((c: { type: string }) => c.type === 'Ready')).to.include({ status: 'False', reason: 'PodCompleted' });
    expect(pod.spec.nodeName).to.equal('kube-test-node');
    expect(pod.status.hostIP).to.equal(cluster.local!.network.nodeIp);
  });

  it('becomes Ready by its readiness probe (kubectl wait), and serves logs with --tail, -f and describe', async () => {
    await cluster.ok(['apply', '-f', '-'], readyPod('ready1'));
    expect(await cluster.ok(['wait', '--for=condition=Ready', 'pod/ready1', '--timeout=20s'])).to.contain('pod/ready1 condition met');
    expect(await cluster.ok(['logs', 'ready1', '--tail=2'])).to.equal('two\nthree\n');
    expect(await cluster.ok(['logs', 'ready1', '-c', 'main', '--timestamps'])).to.match(/^\d{4}-\d\d-\d\dT[\d:.]+Z one\n/);
    const table = await cluster.ok(['get', 'pods', 'ready1']);
    expect(table.split('\n')[1]).to.match(/^ready1\s+1\/1\s+Running\s+0\s+\d+s$/);
    const described = await cluster.ok(['describe', 'pod', 'ready1']);
    expect(described).to.match(/Status:\s+Running/);
    expect(described).to.match(/Readiness:\s+exec \[cat \/work\/ready\]/);
    expect(described).to.match(/Normal\s+Scheduled\s+\S+\s+default-scheduler\s+Successfully assigned default\/ready1 to kube-test-node/);
    expect(described).to.match(/Normal\s+Started\s+\S+\s+kubelet\s+Started container main/);
  });

  it('follows a log with -f until the container exits', async () => {
    await cluster.ok(
      ['apply', '-f', '-'],
      `apiVersion: v1
kind: Pod
metadata: {name: follow}
spec:
  restartPolicy: Never
  containers:
  - {name: main, image: busybox, command: [sh, -c, "for i in 1 2 3; do echo line $i; sleep 0.3; done"]}
`,
    );
    await cluster.ok(['wait', '--for=jsonpath={.status.phase}=Running', 'pod/follow', '--timeout=20s']);
    expect(await cluster.ok(['logs', '-f', 'follow'])).to.equal('line 1\nline 2\nline 3\n');
  });

  it('restarts a failing container by its restart policy with backoff, keeps the previous log, and fails a Never pod', async () => {
    await cluster.ok(
      ['apply', '-f', '-'],
      `apiVersion: v1
kind: Pod
metadata: {name: crasher}
spec:
  restartPolicy: OnFailure
  containers:
  - {name: main, image: busybox, command: [sh, -c, "echo attempt; exit 3"]}
---
apiVersion: v1
kind: Pod
metadata: {name: once}
spec:
  restartPolicy: Never
  containers:
  - {name: main, image: busybox, command: [sh, -c, "exit 7"]}
`,
    );
    await eventually(async () => (await cluster.json(['get', 'pod', 'crasher'])).status.containerStatuses?.[0]?.restartCount >= 2, 20000);
    const crasher = await cluster.json(['get', 'pod', 'crasher']);
    const status = crasher.status.containerStatuses[0];
    expect(status.lastState.terminated).to.include({ exitCode: 3, reason: 'Error' });
    expect(crasher.status.phase).to.equal('Running');
    expect(await cluster.ok(['logs', 'crasher', '--previous'])).to.equal('attempt\n');
    await eventually(async () => (await cluster.ok(['get', 'pod', 'crasher'])).includes('CrashLoopBackOff'), 10000);
    const events = await cluster.ok(['get', 'events', '--field-selector', 'involvedObject.name=crasher']);
    expect(events).to.match(/Warning\s+BackOff\s+pod\/crasher\s+Back-off restarting failed container main in pod crasher_default/);
    await cluster.ok(['wait', '--for=jsonpath={.status.phase}=Failed', 'pod/once', '--timeout=20s']);
    const once = await cluster.json(['get', 'pod', 'once']);
    expect(once.status.containerStatuses[0].state.terminated).to.include({ exitCode: 7, reason: 'Error' });
    expect(once.status.containerStatuses[0].restartCount).to.equal(0);
    await cluster.ok(['delete', 'pod', 'crasher', 'once']);
  });

  it('restarts a container whose liveness probe fails', async () => {
    await cluster.ok(
      ['apply', '-f', '-'],
      `apiVersion: v1
kind: Pod
metadata: {name: unhealthy}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: main
    image: busybox
    command: [sh, -c, "touch /tmp-data/alive; sleep 1; rm /tmp-data/alive; exec sleep 600"]
    livenessProbe: {exec: {command: [cat, /tmp-data/alive]}, periodSeconds: 1, failureThreshold: 2}
    volumeMounts: [{name: d, mountPath: /tmp-data}]
  volumes: [{name: d, emptyDir: {}}]
`,
    );
    await eventually(async () => (await cluster.json(['get', 'pod', 'unhealthy'])).status.containerStatuses?.[0]?.restartCount >= 1, 20000);
    const events = await cluster.ok(['get', 'events', '--field-selector', 'involvedObject.name=unhealthy']);
    expect(events).to.match(/Warning\s+Unhealthy\s+pod\/unhealthy\s+Liveness probe failed: cat: .*alive: No such file or directory/);
    expect(events).to.match(/Normal\s+Killing\s+pod\/unhealthy\s+Container main failed liveness probe, will be restarted/);
    await cluster.ok(['delete', 'pod', 'unhealthy']);
  });

  it('keeps a container waiting with a clear reason: an image it cannot run, a missing ConfigMap', async () => {
    await cluster.ok(
      ['apply', '-f', '-'],
      `apiVersion: v1
kind: Pod
metadata: {name: noimage}
spec:
  containers: [{name: main, image: "nginx:1.27"}]
---
apiVersion: v1
kind: Pod
metadata: {name: noconfig}
spec:
  containers:
  - name: main
    image: busybox
    command: [sh, -c, "echo value=$V; exec sleep 600"]
    env: [{name: V, valueFrom: {configMapKeyRef: {name: later, key: v}}}]
`,
    );
    await eventually(async () => /ErrImagePull|ImagePullBackOff/.test(await cluster.ok(['get', 'pod', 'noimage'])));
    const waiting = (await cluster.json(['get', 'pod', 'noimage'])).status.containerStatuses[0].state.waiting;
    expect(waiting.message).to.contain('"nginx:1.27": the process kubelet knows no such image');
    await eventually(async () => (await cluster.ok(['get', 'pod', 'noconfig'])).includes('CreateContainerConfigError'));
    expect((await cluster.json(['get', 'pod', 'noconfig'])).status.containerStatuses[0].state.waiting.message).to.equal(
      'configmap "later" not found',
    );
    await cluster.ok(['create', '-f', '-'], 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: later}\ndata: {v: "42"}\n');
    await cluster.ok(['wait', '--for=jsonpath={.status.phase}=Running', 'pod/noconfig', '--timeout=20s']);
    await eventually(async () => (await cluster.ok(['logs', 'noconfig'])) === 'value=42\n');
    await cluster.ok(['delete', 'pod', 'noimage', 'noconfig', '--grace-period=0', '--force']);
  });

  it("restarts a container whose image is patched, and refuses other changes to a pod's spec", async () => {
    await cluster.ok(['apply', '-f', '-'], readyPod('patched'));
    await cluster.ok(['wait', '--for=condition=Ready', 'pod/patched', '--timeout=20s']);
    const r = await cluster.kubectl(['patch', 'pod', 'patched', '-p', '{"spec":{"containers":[{"name":"main","command":["sleep","1"]}]}}']);
    expect(r.code).to.not.equal(0);
    expect(r.stderr).to.contain(
      'The Pod "patched" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`',
    );
    await cluster.ok(['patch', 'pod', 'patched', '-p', '{"spec":{"containers":[{"name":"main","image":"busybox:1.37"}]}}']);
    await eventually(async () => {
      const s = (await cluster.json(['get', 'pod', 'patched'])).status.containerStatuses[0];
      return s.restartCount === 1 && s.image === 'busybox:1.37' && s.state.running !== undefined;
    }, 20000);
    await cluster.ok(['delete', 'pod', 'patched']);
  });

  it('writes a changed ConfigMap into the volumes that mount it, and says exec is not supported', async () => {
    await cluster.ok(
      ['apply', '-f', '-'],
      `apiVersion: v1
kind: ConfigMap
metadata: {name: live}
data: {value: one}
---
apiVersion: v1
kind: Pod
metadata: {name: reader}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: main
    image: busybox
    command: [sh, -c, "while true; do cat /config/value; echo; sleep 0.2; done"]
    volumeMounts: [{name: config, mountPath: /config}]
  volumes: [{name: config, configMap: {name: live}}]
`,
    );
    await eventually(async () => (await cluster.ok(['logs', 'reader', '--tail=1'])) === 'one\n');
    await cluster.ok(['patch', 'configmap', 'live', '--type=merge', '-p', '{"data":{"value":"two"}}']);
    await eventually(async () => (await cluster.ok(['logs', 'reader', '--tail=1'])) === 'two\n');
    const exec = await cluster.kubectl(['exec', 'reader', '--', 'true']);
    expect(exec.code).to.not.equal(0);
    expect(exec.stderr).to.contain('Error from server (BadRequest): pods/exec is not supported by the test cluster');
    await cluster.ok(['delete', 'pod', 'reader']);
  });

  it('shares a hostPath folder between pods, and points a mounted path named in a ConfigMap file to the folder the process sees', async () => {
    const shared = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-shared-'));
    const mount = `volumeMounts: [{name: lake, mountPath: /data/lake}, {name: where, mountPath: /etc/where}]
  volumes: [{name: lake, hostPath: {path: ${shared}, type: Directory}}, {name: where, configMap: {name: where}}]`;
    await cluster.ok(
      ['apply', '-f', '-'],
      `apiVersion: v1
kind: ConfigMap
metadata: {name: where}
data: {lake.conf: "dir=file:///data/lake\\n"}
---
apiVersion: v1
kind: Pod
metadata: {name: writer}
spec:
  restartPolicy: Never
  containers:
  - name: main
    image: busybox
    command: [sh, -c, "echo written by the writer > /data/lake/note"]
    ${mount}
---
apiVersion: v1
kind: Pod
metadata: {name: lake-reader}
spec:
  restartPolicy: Never
  containers:
  - name: main
    image: busybox
    command: [sh, -c, 'cat /etc/where/lake.conf; p=$(sed -n "s|^dir=file://||p" /etc/where/lake.conf); until [ -f "$p/note" ]; do sleep 0.1; done; cat "$p/note"']
    ${mount}
`,
    );
    try {
      await cluster.ok(['wait', '--for=jsonpath={.status.phase}=Succeeded', 'pod/writer', 'pod/lake-reader', '--timeout=20s']);
      expect(await cluster.ok(['logs', 'lake-reader'])).to.equal(`dir=file://${shared}\nwritten by the writer\n`);
      expect(fs.readFileSync(path.join(shared, 'note'), 'utf8')).to.equal('written by the writer\n');
    } finally {
      await cluster.ok(['delete', 'pod', 'writer', 'lake-reader']);
      fs.rmSync(shared, { recursive: true, force: true });
    }
  });

  it('deletes a pod with its processes', async () => {
    await cluster.ok(['delete', 'pod', 'ready1']);
    expect((await cluster.kubectl(['get', 'pod', 'ready1'])).stderr).to.contain('pods "ready1" not found');
  });
});
