// A function that reads a timestamp(p)/time(p) above precision 6 through a `timestamp`/`time`
// family parameter, with no long form (long-plain-lift.ts), is refused when the call is analyzed
// rather than handed picoseconds where its body expects micros; type-variable parameters, which
// pass values through untouched, and short precisions are not refused.

import { expect } from 'chai';
import { checkLongPlainCall, implementWithLongPlain } from '../../src/functions/scalar/long-plain-lift.js';
import { type SignatureTemplate, body } from '../../src/functions/scalar/signature.js';
import { BIGINT, timestamp } from '../../src/types/types.js';
import { EngineError } from '../../src/errors/engine-error.js';

function failure(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof EngineError) return `${e.errorName}: ${e.rawMessage}`;
    throw e;
  }
  return 'no error';
}

describe('functions without a long timestamp form', () => {
  const family: SignatureTemplate = {
    params: [{ family: 'timestamp' }],
    returnType: BIGINT,
    implement: () => body((t: number) => BigInt(t)),
  };
  const variable: SignatureTemplate = { params: [{ variable: 'T' }], returnType: BIGINT, implement: () => body(() => 1n) };

  it('are refused for long precisions read through a family parameter', () => {
    const message = 'NOT_SUPPORTED: unlisted(timestamp(9)) is not supported: precision above 3';
    expect(failure(() => checkLongPlainCall('unlisted', { template: family, argumentTypes: [timestamp(9)], returnType: BIGINT }))).to.equal(
      message,
    );
    expect(failure(() => implementWithLongPlain('unlisted', family, [timestamp(9)], BIGINT))).to.equal(message);
  });

  it('run unchanged for precision 3 and through type variables', () => {
    expect(failure(() => checkLongPlainCall('unlisted', { template: family, argumentTypes: [timestamp(3)], returnType: BIGINT }))).to.equal(
      'no error',
    );
    expect(implementWithLongPlain('unlisted', family, [timestamp(3)], BIGINT).invoke(5)).to.equal(5n);
    expect(
      failure(() => checkLongPlainCall('unlisted', { template: variable, argumentTypes: [timestamp(12)], returnType: BIGINT })),
    ).to.equal('no error');
  });
});
