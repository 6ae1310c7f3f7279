// A shared join lookup table made usable in this thread (see shared-join-lookup).

import type { Column } from '../../columnar/page.js';
import { assertNever } from '../../sql/planner/assert-never.js';
import { DenseIntegerJoinLookup } from './dense-integer-join-lookup.js';
import { IntegerJoinHash } from './integer-join-hash.js';
import { JoinHash } from './join-hash.js';
import type { JoinLookup } from './join-lookup.js';
import type { SharedJoinLookup } from './shared-join-lookup.js';

/** The lookup table of `shared` in this thread, over this thread's view of the build keys. */
export function lookupFromShared(shared: SharedJoinLookup, buildKeys: readonly Column[]): JoinLookup {
  switch (shared.kind) {
    case 'integer':
      return IntegerJoinHash.fromShared(shared);
    case 'dense-integer':
      return DenseIntegerJoinLookup.fromShared(shared);
    case 'general':
      return JoinHash.fromShared(shared, buildKeys);
    default:
      return assertNever(shared);
  }
}
