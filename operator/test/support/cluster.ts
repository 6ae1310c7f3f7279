// An EngineCluster object as the API server hands it to the operator (defaults applied).
import type { EngineCluster } from '../../src/api/engine-cluster.js';
import { withDefaults } from '../../src/api/spec-defaults.js';

export function engineCluster(spec: unknown = {}, name = 'demo'): EngineCluster {
  return {
    apiVersion: 'engine.io/v1alpha1',
    kind: 'EngineCluster',
    metadata: { name, namespace: 'ns', uid: 'uid-1', generation: 1 },
    spec: withDefaults(spec),
  };
}
