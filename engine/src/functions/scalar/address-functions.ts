// uuid() and the ipaddress function contains(network, address), as Trino has them.

import { BOOLEAN, IPADDRESS, UUID } from '../../types/types.js';
import { networkContains } from '../../types/ipaddress-type.js';
import { randomUuid } from '../../types/uuid-type.js';
import { type ScalarFunctionDefinition, body } from './signature.js';

const VARCHAR_X = { family: 'varchar' } as const;

export const ADDRESS_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  { names: ['uuid'], description: 'Generates a random UUID', deterministic: false, signatures: [{ params: [], returnType: UUID, implement: () => body(randomUuid) }] },
  {
    names: ['contains'],
    description: 'Determines whether given IP address exists in the CIDR',
    signatures: [{ params: [VARCHAR_X, IPADDRESS], returnType: BOOLEAN, implement: () => body(networkContains) }],
  },
];
