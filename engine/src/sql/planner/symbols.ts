// Allocates plan symbols and plan node ids, unique within one query.

import type { SqlType } from '../../types/types.js';
import type { Symbol } from './row-expression.js';

export class SymbolAllocator {
  private nextSymbolId = 0;
  private nextNodeId = 0;

  newSymbol(name: string, type: SqlType): Symbol {
    return { id: this.nextSymbolId++, name: sanitize(name), type };
  }

  nodeId(): number {
    return this.nextNodeId++;
  }
}

function sanitize(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_$]/g, '_').slice(0, 40);
  return cleaned.length > 0 ? cleaned : 'expr';
}
