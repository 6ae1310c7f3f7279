// functions/system.md: version(), the version of the engine the query runs on (hidden from SHOW
// FUNCTIONS, as Trino hides its VersionFunction). Every node of a cluster runs the same version.

import { engineVersion } from '../../config/version.js';
import { VARCHAR } from '../../types/types.js';
import { type ScalarFunctionDefinition, body } from './signature.js';

export const SYSTEM_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['version'],
    description: 'Return server version',
    hidden: true,
    signatures: [{ params: [], returnType: VARCHAR, implement: () => body(() => engineVersion()) }],
  },
];
