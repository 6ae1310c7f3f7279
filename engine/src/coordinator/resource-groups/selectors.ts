// Selectors pick the resource group of a query from its user and source, like Trino's static
// selectors: the first selector whose regexes match the whole user and source wins, and its group
// path is expanded with the query's ${USER} and ${SOURCE}.

import { resolveGroupPath, type GroupSpec, type ResourceGroupsFile } from './resource-groups-file.js';

export interface Selection {
  /** Concrete group path, e.g. ['global', 'adhoc_bob']. */
  id: string[];
  /** The configured group of each path segment. */
  specs: GroupSpec[];
}

interface Selector {
  user?: RegExp;
  source?: RegExp;
  segments: string[];
  specs: GroupSpec[];
}

export class Selectors {
  private readonly selectors: Selector[];

  constructor(file: ResourceGroupsFile) {
    this.selectors = file.selectors.map((s) => ({
      user: s.user === undefined ? undefined : wholeMatch(s.user),
      source: s.source === undefined ? undefined : wholeMatch(s.source),
      segments: s.group.split('.'),
      specs: resolveGroupPath(file.rootGroups, s.group),
    }));
  }

  /** The group of the first matching selector; undefined when none matches. */
  select(user: string, source: string | undefined): Selection | undefined {
    for (const selector of this.selectors) {
      if (selector.user && !selector.user.test(user)) continue;
      if (selector.source && (source === undefined || !selector.source.test(source))) continue;
      const id = selector.segments.map((segment) => expand(segment, user, source));
      // A path that needs ${SOURCE} cannot be built for a query without a source: try the next selector.
      if (id.some((segment) => segment === undefined)) continue;
      return { id: id as string[], specs: selector.specs };
    }
    return undefined;
  }
}

function wholeMatch(pattern: string): RegExp {
  return new RegExp(`^(?:${pattern})$`);
}

function expand(template: string, user: string, source: string | undefined): string | undefined {
  if (template.includes('${SOURCE}') && source === undefined) return undefined;
  return template.replaceAll('${USER}', user).replaceAll('${SOURCE}', source ?? '');
}
