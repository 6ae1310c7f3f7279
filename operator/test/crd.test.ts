import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";
import { withDefaults } from "../src/api/spec-defaults.js";
import { clusterValidator, crd, crdFile, readYaml, repoRoot } from "./support/crd-schema.js";

describe("the EngineCluster CRD", () => {
  const validate = clusterValidator();
  const admit = (spec: unknown) => {
    const obj = { apiVersion: "engine.io/v1alpha1", kind: "EngineCluster", metadata: { name: "x" }, spec: structuredClone(spec) };
    const ok = validate(obj);
    return { ok, obj, errors: (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`) };
  };

  it("has the names, subresources and printer columns kubectl relies on", () => {
    const c = crd();
    expect(c.spec.group).to.equal("engine.io");
    expect(c.spec.names.shortNames).to.deep.equal(["ec"]);
    const v = c.spec.versions[0];
    expect(v.name).to.equal("v1alpha1");
    expect(v.subresources.status).to.deep.equal({});
    expect(v.subresources.scale).to.deep.equal({ specReplicasPath: ".spec.workers.replicas", statusReplicasPath: ".status.workers.ready", labelSelectorPath: ".status.selector" });
    expect(v.additionalPrinterColumns.filter((p: { priority?: number }) => !p.priority).map((p: { name: string }) => p.name)).to.deep.equal(["Workers", "Ready", "State", "Age"]);
  });

  it("applies the same defaults as the operator", () => {
    for (const spec of [{}, { workers: { autoscaling: {} } }, { coordinator: { service: { type: "NodePort" } }, workers: { replicas: 5 } }, { catalogs: { t: { connector: "tpch" } }, config: { a: 1 } }]) {
      const { ok, obj, errors } = admit(spec);
      expect(ok, errors.join("; ")).to.equal(true);
      expect(obj.spec, JSON.stringify(spec)).to.deep.equal(withDefaults(spec));
    }
  });

  it("refuses wrong values with the field named", () => {
    const refused = (spec: unknown) => {
      const r = admit(spec);
      expect(r.ok, JSON.stringify(spec)).to.equal(false);
      return r.errors.join("; ");
    };
    expect(refused({ workers: { replicas: -1 } })).to.match(/\/spec\/workers\/replicas must be >= 0/);
    expect(refused({ workers: { replicas: "two" } })).to.match(/\/spec\/workers\/replicas must be integer/);
    expect(refused({ workers: { drainTimeoutSeconds: 0 } })).to.match(/drainTimeoutSeconds must be >= 1/);
    expect(refused({ catalogs: { x: { connector: "hive" } } })).to.match(/\/spec\/catalogs\/x\/connector must be equal to one of the allowed values/);
    expect(refused({ coordinator: { service: { port: 70000 } } })).to.match(/port must be <= 65535/);
    expect(refused({ imagePullPolicy: "Sometimes" })).to.match(/imagePullPolicy must be equal to one of the allowed values/);
    expect(refused({ workers: { resources: { requests: { cpu: "two" } } } })).to.match(/requests\/cpu must match pattern/);
  });

  it("accepts both examples as they are", () => {
    for (const file of ["examples/minimal.yaml", "examples/full.yaml"]) {
      const example = readYaml(file);
      const { ok, errors } = admit(example.spec);
      expect(ok, `${file}: ${errors.join("; ")}`).to.equal(true);
      expect(example.kind).to.equal("EngineCluster");
    }
  });

  it("is the file the Helm chart installs", () => {
    expect(fs.readFileSync(path.join(repoRoot, "charts/engine/crds/engineclusters.engine.io.yaml"), "utf8")).to.equal(fs.readFileSync(crdFile, "utf8"));
  });
});
