// Code for lambda arguments: a lambda becomes a JS arrow function over scalars (null for SQL NULL)
// defined in the row loop, so its body reads the row's captured columns like any other code, and
// the function that takes it calls it per element. Errors its body raises propagate unchanged.

import type { LambdaExpression } from '../../sql/planner/row-expression.js';
import type { CodeGenerator, Emitted } from './code-generator.js';
import { defaultLiteral } from './js-values.js';

export function generateLambda(g: CodeGenerator, e: LambdaExpression): Emitted {
  const fn = g.fresh('f');
  const args = e.parameters.map(() => g.fresh('a'));
  const unpack: string[] = [];
  const parameters = new Map<string, Emitted>();
  e.parameters.forEach((p, i) => {
    const value = g.fresh('v');
    const isNull = g.fresh('n');
    unpack.push(`const ${isNull} = ${args[i]} === null; const ${value} = ${isNull} ? ${defaultLiteral(p.type)} : ${args[i]};`);
    parameters.set(p.name, { value, isNull });
  });
  const { lines, result } = g.generateNested(parameters, () => g.generate(e.body));
  const returned =
    result.isNull === 'false' ? result.value : result.isNull === 'true' ? 'null' : `(${result.isNull} ? null : ${result.value})`;
  g.emit(`const ${fn} = (${args.join(', ')}) => {`);
  for (const line of [...unpack, ...lines]) g.emit(line);
  g.emit(`return ${returned};`);
  g.emit('};');
  return { value: fn, isNull: 'false' };
}
