// A session as plain JSON, for the task requests that carry it to workers (its maps as objects).

import type { Session } from './session.js';

export interface SessionJson {
  queryId: string;
  user: string;
  source?: string;
  catalog?: string;
  schema?: string;
  timeZone: string;
  properties: Record<string, string>;
  preparedStatements: Record<string, string>;
  clientTags: string[];
  clientInfo?: string;
  startTime: number;
}

export function sessionToJson(session: Session): SessionJson {
  return {
    ...session,
    properties: Object.fromEntries(session.properties),
    preparedStatements: Object.fromEntries(session.preparedStatements),
  };
}

export function sessionFromJson(json: SessionJson): Session {
  return {
    ...json,
    properties: new Map(Object.entries(json.properties)),
    preparedStatements: new Map(Object.entries(json.preparedStatements)),
  };
}
