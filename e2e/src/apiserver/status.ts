// Errors as kube-apiserver sends them: a meta/v1 Status with reason, code and details, so kubectl
// prints the same messages it prints against a real cluster ("Error from server (NotFound): ...").

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: { reason?: string; message: string; field?: string }[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(message);
  }

  toStatus(): Status {
    const status: Status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      code: this.code,
    };
    if (this.details) status.details = this.details;
    return status;
  }
}

/** "deployments.apps" or "pods": how the real server names a resource in messages. */
export interface Qualified {
  group: string;
  resource: string;
  kind?: string;
}

function qualifiedName(q: Qualified): string {
  return q.group ? `${q.resource}.${q.group}` : q.resource;
}

function detailsOf(q: Qualified, name: string): StatusDetails {
  return { name, group: q.group, kind: q.resource };
}

export function notFound(q: Qualified, name: string): ApiError {
  return new ApiError(404, 'NotFound', `${qualifiedName(q)} "${name}" not found`, detailsOf(q, name));
}

export function alreadyExists(q: Qualified, name: string): ApiError {
  return new ApiError(409, 'AlreadyExists', `${qualifiedName(q)} "${name}" already exists`, detailsOf(q, name));
}

export function conflict(q: Qualified, name: string, why: string): ApiError {
  return new ApiError(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedName(q)} "${name}": ${why}`, detailsOf(q, name));
}

export const staleObjectMessage = 'the object has been modified; please apply your changes to the latest version and try again';

export interface FieldError {
  field: string;
  reason:
    | 'FieldValueInvalid'
    | 'FieldValueRequired'
    | 'FieldValueNotSupported'
    | 'FieldValueForbidden'
    | 'FieldValueDuplicate'
    | 'FieldValueTypeInvalid'
    | 'FieldValueTooLong';
  message: string;
}

/** 422 Invalid, worded like apimachinery's field.ErrorList aggregate. */
export function invalid(q: Qualified & { kind: string }, name: string, errors: FieldError[]): ApiError {
  const causes = errors.map((e) => ({ reason: e.reason, message: e.message, field: e.field }));
  const summary = errors.map((e) => `${e.field}: ${e.message}`);
  const text = summary.length === 1 ? summary[0] : `[${summary.join(', ')}]`;
  const qualifiedKind = q.group ? `${q.kind}.${q.group}` : q.kind;
  return new ApiError(422, 'Invalid', `${qualifiedKind} "${name}" is invalid: ${text}`, {
    name,
    group: q.group,
    kind: q.kind,
    causes,
  });
}

export function badRequest(message: string): ApiError {
  return new ApiError(400, 'BadRequest', message);
}

export function methodNotAllowed(message = 'the server does not allow this method on the requested resource'): ApiError {
  return new ApiError(405, 'MethodNotAllowed', message);
}

export function notFoundPath(): ApiError {
  return new ApiError(404, 'NotFound', 'the server could not find the requested resource');
}

export function expired(message: string): ApiError {
  return new ApiError(410, 'Expired', message);
}

export function forbidden(q: Qualified, name: string, why: string): ApiError {
  return new ApiError(403, 'Forbidden', `${qualifiedName(q)} "${name}" is forbidden: ${why}`, detailsOf(q, name));
}

export function unsupportedMediaType(contentType: string): ApiError {
  return new ApiError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json (got ${contentType})`,
  );
}

export function internalError(message: string): ApiError {
  return new ApiError(500, 'InternalError', `Internal error occurred: ${message}`);
}

export function success(details?: StatusDetails): Status {
  const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200 };
  if (details) s.details = details;
  return s;
}
