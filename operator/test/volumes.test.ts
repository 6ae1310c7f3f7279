import { expect } from 'chai';
import { specProblems } from '../src/api/spec-defaults.js';
import { coordinatorDeployment } from '../src/resources/coordinator.js';
import { workerTemplate } from '../src/resources/worker-pod.js';
import { engineCluster } from './support/cluster.js';

const lake = { name: 'lake', persistentVolumeClaim: { claimName: 'lake' } };
const lakeMount = { name: 'lake', mountPath: '/var/lib/engine/lake' };

describe('volumes of the engine pods', () => {
  it("mounts spec.volumes on every pod and a role's own volumes on its pods only, beside the configuration", () => {
    const cluster = engineCluster({
      volumes: [lake],
      volumeMounts: [lakeMount],
      workers: { volumes: [{ name: 'scratch', emptyDir: {} }], volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }] },
    });
    const worker = workerTemplate(cluster, 'http://10.0.0.1:8080', 'c').pod.spec!;
    expect(worker.volumes!.map((v) => v.name)).to.deep.equal(['config', 'lake', 'scratch']);
    expect(worker.volumes![1]).to.deep.equal(lake);
    expect(worker.containers[0].volumeMounts).to.deep.equal([
      { name: 'config', mountPath: '/etc/engine', readOnly: true },
      lakeMount,
      { name: 'scratch', mountPath: '/scratch' },
    ]);
    const coordinator = coordinatorDeployment(cluster, 'c').spec!.template.spec!;
    expect(coordinator.volumes!.map((v) => v.name)).to.deep.equal(['config', 'lake']);
    expect(coordinator.containers[0].volumeMounts!.map((m) => m.mountPath)).to.deep.equal(['/etc/engine', '/var/lib/engine/lake']);
  });

  it('rolls the workers when their volumes change', () => {
    const before = workerTemplate(engineCluster({ volumes: [lake], volumeMounts: [lakeMount] }), 'http://10.0.0.1:8080', 'c').hash;
    const after = workerTemplate(
      engineCluster({ volumes: [{ ...lake, persistentVolumeClaim: { claimName: 'lake-2' } }], volumeMounts: [lakeMount] }),
      'http://10.0.0.1:8080',
      'c',
    ).hash;
    expect(after).to.not.equal(before);
  });

  it('finds names taken twice or by the operator, mounts of volumes a pod lacks, and paths taken twice', () => {
    const problems = (spec: unknown) => specProblems('demo', engineCluster(spec).spec);
    expect(
      problems({ volumes: [lake], volumeMounts: [lakeMount], coordinator: { volumeMounts: [{ name: 'lake', mountPath: '/more' }] } }),
    ).to.deep.equal([]);
    expect(problems({ volumes: [{ name: 'config', emptyDir: {} }] })).to.deep.equal([
      'spec.volumes: the name "config" is the operator\'s (the configuration file)',
    ]);
    expect(problems({ volumes: [lake], workers: { volumes: [{ name: 'lake', emptyDir: {} }] } })).to.deep.equal([
      'spec.workers.volumes: "lake" is given twice for the worker pods',
    ]);
    expect(problems({ workers: { volumes: [lake] }, volumeMounts: [lakeMount] })).to.deep.equal([
      'spec.volumeMounts: "lake" is not a volume of spec.volumes (mounts there are on every pod)',
    ]);
    expect(problems({ volumes: [lake], coordinator: { volumeMounts: [{ name: 'scratch', mountPath: '/s' }] } })).to.deep.equal([
      'spec.coordinator.volumeMounts: "scratch" is not a volume of spec.volumes or spec.coordinator.volumes',
    ]);
    expect(problems({ volumes: [lake], volumeMounts: [{ name: 'lake', mountPath: '/etc/engine/' }] })).to.deep.equal([
      'spec.volumeMounts: /etc/engine/ is where the operator mounts the configuration file',
    ]);
    expect(
      problems({
        volumes: [lake],
        volumeMounts: [lakeMount],
        workers: { volumeMounts: [{ name: 'lake', mountPath: '/var/lib/engine/lake/' }] },
      }),
    ).to.deep.equal(['spec.workers.volumeMounts: /var/lib/engine/lake/ is mounted twice in the worker container']);
  });
});
