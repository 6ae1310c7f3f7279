// disabled_optimizer_rules: optimizer rules a session switches off by name, to find which rule a
// wrong or slow plan comes from. A rule the plan cannot run without is refused, as is a name that
// is no rule's.

import type { PropertyMetadata } from '../../../spi/properties.js';
import type { Session } from '../../../spi/session.js';
import { allOptimizerRules } from './optimizer.js';

export const DISABLED_OPTIMIZER_RULES_PROPERTY: PropertyMetadata = {
  name: 'disabled_optimizer_rules',
  type: { kind: 'varchar' },
  defaultValue: '',
  description:
    'Comma-separated names of optimizer rules not to run, for diagnosing a plan; rules the plan cannot run without cannot be disabled',
  validate: (v) => {
    checkDisabledRules(ruleNames(String(v)));
  },
};

export function disabledOptimizerRules(session: Session): ReadonlySet<string> {
  return new Set(ruleNames(session.properties.get(DISABLED_OPTIMIZER_RULES_PROPERTY.name) ?? ''));
}

function ruleNames(list: string): string[] {
  return list
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
}

/** Throws with what is wrong with the first name that cannot be disabled. */
function checkDisabledRules(names: readonly string[]): void {
  const rules = allOptimizerRules();
  for (const name of names) {
    const rule = rules.get(name);
    if (rule === undefined) throw new Error(`'${name}' is not an optimizer rule; the rules are ${[...rules.keys()].join(', ')}`);
    if (rule.requiredBecause !== undefined) {
      const optional = [...rules.values()].filter((r) => r.requiredBecause === undefined).map((r) => r.name);
      throw new Error(`rule '${name}' cannot be disabled: ${rule.requiredBecause}; rules that can be disabled are ${optional.join(', ')}`);
    }
  }
}
