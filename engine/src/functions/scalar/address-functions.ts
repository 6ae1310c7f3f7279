// uuid() and the ipaddress function contains(network, address), as Trino has them.

import { BOOLEAN, IPADDRESS, UUID, VARCHAR } from '../../types/types.js';
import { networkContains } from '../../types/ipaddress-type.js';
import { randomUuid } from '../../types/uuid-type.js';
import { type ScalarFunctionDefinition, body } from './signature.js';

export const ADDRESS_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['uuid'],
    description: 'Generates a random UUID',
    deterministic: false,
    signatures: [{ params: [], returnType: UUID, implement: () => body(randomUuid) }],
  },
  {
    names: ['contains'],
    description: 'Determines whether given IP address exists in the CIDR',
    signatures: [{ params: [VARCHAR, IPADDRESS], returnType: BOOLEAN, implement: () => body(networkContains) }],
  },
];
