import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { CONNECTORS } from '../src/api/engine-cluster.js';
import { specProblems, withDefaults } from '../src/api/spec-defaults.js';
import { clusterValidator, crd, crdFile, readYaml, repoRoot } from './support/crd-schema.js';

describe('the EngineCluster CRD', () => {
  const validate = clusterValidator();
  const admit = (spec: unknown) => {
    const obj = { apiVersion: 'engine.io/v1alpha1', kind: 'EngineCluster', metadata: { name: 'x' }, spec: structuredClone(spec) };
    const ok = validate(obj);
    return { ok, obj, errors: (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`) };
  };

  it('has the names, subresources and printer columns kubectl relies on', () => {
    const c = crd();
    expect(c.spec.group).to.equal('engine.io');
    expect(c.spec.names.shortNames).to.deep.equal(['ec']);
    const v = c.spec.versions[0];
    expect(v.name).to.equal('v1alpha1');
    expect(v.subresources.status).to.deep.equal({});
    expect(v.subresources.scale).to.deep.equal({
      specReplicasPath: '.spec.workers.replicas',
      statusReplicasPath: '.status.workers.ready',
      labelSelectorPath: '.status.selector',
    });
    expect(v.additionalPrinterColumns.filter((p: { priority?: number }) => !p.priority).map((p: { name: string }) => p.name)).to.deep.equal(
      ['Workers', 'Ready', 'State', 'Age'],
    );
  });

  it('applies the same defaults as the operator', () => {
    for (const spec of [
      {},
      { workers: { autoscaling: {} } },
      { coordinator: { service: { type: 'NodePort' } }, workers: { replicas: 5 } },
      { catalogs: { t: { connector: 'tpch' } }, config: { a: 1 } },
    ]) {
      const { ok, obj, errors } = admit(spec);
      expect(ok, errors.join('; ')).to.equal(true);
      expect(obj.spec, JSON.stringify(spec)).to.deep.equal(withDefaults(spec));
    }
  });

  it('refuses wrong values with the field named', () => {
    const refused = (spec: unknown) => {
      const r = admit(spec);
      expect(r.ok, JSON.stringify(spec)).to.equal(false);
      return r.errors.join('; ');
    };
    expect(refused({ workers: { replicas: -1 } })).to.match(/\/spec\/workers\/replicas must be >= 0/);
    expect(refused({ workers: { replicas: 'two' } })).to.match(/\/spec\/workers\/replicas must be integer/);
    expect(refused({ workers: { drainTimeoutSeconds: 0 } })).to.match(/drainTimeoutSeconds must be >= 1/);
    expect(refused({ catalogs: { x: { connector: 'mysql' } } })).to.match(
      /\/spec\/catalogs\/x\/connector must be equal to one of the allowed values/,
    );
    expect(refused({ coordinator: { service: { port: 70000 } } })).to.match(/port must be <= 65535/);
    expect(refused({ imagePullPolicy: 'Sometimes' })).to.match(/imagePullPolicy must be equal to one of the allowed values/);
    expect(refused({ workers: { resources: { requests: { cpu: 'two' } } } })).to.match(/requests\/cpu must match pattern/);
  });

  it("offers the connectors the engine's configuration schema lists, and the operator knows the same", () => {
    const engineSchema = JSON.parse(
      execFileSync(process.execPath, [path.join(repoRoot, 'engine/dist/src/cli/main.js'), 'config-schema'], { encoding: 'utf8' }),
    );
    const engineConnectors: string[] = engineSchema.properties.catalogs.items.properties.connector.enum;
    const crdConnectors: string[] =
      crd().spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.catalogs.additionalProperties.properties.connector.enum;
    expect([...crdConnectors].sort()).to.deep.equal([...engineConnectors].sort());
    expect([...CONNECTORS].sort()).to.deep.equal([...engineConnectors].sort());
    for (const connector of ['hive', 'postgresql']) expect(admit({ catalogs: { c: { connector } } }).ok, connector).to.equal(true);
  });

  it('takes a catalog property as a string or as a key of a Secret, and refuses other shapes', () => {
    const withProperty = (value: unknown) => ({
      catalogs: { pg: { connector: 'postgresql', properties: { 'connection-password': value } } },
    });
    const secretRef = { valueFrom: { secretKeyRef: { name: 'pg-credentials', key: 'password' } } };
    for (const value of ['plain', secretRef]) {
      const r = admit(withProperty(value));
      expect(r.ok, r.errors.join('; ')).to.equal(true);
      expect(r.obj.spec).to.deep.equal(withDefaults(withProperty(value)));
    }
    const errors = (value: unknown) => {
      const r = admit(withProperty(value));
      expect(r.ok, JSON.stringify(value)).to.equal(false);
      return r.errors.join('; ');
    };
    expect(errors({ valueFrom: { secretKeyRef: { name: 'pg-credentials' } } })).to.match(/secretKeyRef must have required property 'key'/);
    expect(errors({ value: 'x' })).to.match(/connection-password must have required property 'valueFrom'/);
    expect(errors({ ...secretRef, other: 1 })).to.match(/connection-password must NOT have more than 1 properties/);
    expect(errors({ valueFrom: { secretKeyRef: { name: 'Not_A_Name', key: 'password' } } })).to.match(
      /secretKeyRef\/name must match pattern/,
    );
    expect(errors({ valueFrom: { configMapKeyRef: { name: 'c', key: 'k' } } })).to.match(
      /valueFrom must have required property 'secretKeyRef'/,
    );
  });

  it('takes volumes and volume mounts for every pod and per role', () => {
    const volumes = [{ name: 'lake', persistentVolumeClaim: { claimName: 'lake' } }];
    const spec = {
      volumes,
      volumeMounts: [{ name: 'lake', mountPath: '/var/lib/engine/lake' }],
      workers: {
        volumes: [{ name: 'scratch', emptyDir: {} }],
        volumeMounts: [{ name: 'scratch', mountPath: '/scratch', readOnly: false }],
      },
    };
    const r = admit(spec);
    expect(r.ok, r.errors.join('; ')).to.equal(true);
    expect(r.obj.spec).to.deep.equal(withDefaults(spec));
    expect(admit({ volumes: [{ persistentVolumeClaim: { claimName: 'lake' } }] }).errors.join('; ')).to.match(
      /\/spec\/volumes\/0 must have required property 'name'/,
    );
    expect(admit({ volumeMounts: [{ name: 'lake', mountPath: 'relative' }] }).errors.join('; ')).to.match(/mountPath must match pattern/);
  });

  it('accepts the examples as they are, and so does the operator', () => {
    for (const file of ['examples/minimal.yaml', 'examples/full.yaml', 'examples/catalogs.yaml']) {
      const example = readYaml(file);
      const { ok, errors } = admit(example.spec);
      expect(ok, `${file}: ${errors.join('; ')}`).to.equal(true);
      expect(example.kind).to.equal('EngineCluster');
      expect(specProblems(example.metadata.name, withDefaults(example.spec)), file).to.deep.equal([]);
    }
  });

  it('is the file the Helm chart installs', () => {
    expect(fs.readFileSync(path.join(repoRoot, 'charts/engine/crds/engineclusters.engine.io.yaml'), 'utf8')).to.equal(
      fs.readFileSync(crdFile, 'utf8'),
    );
  });
});
