// Request bodies in Kubernetes' protobuf encoding, which client-go's typed clients send (kubectl
// create configmap / secret / namespace, helm's release Secrets, DeleteOptions, kubectl autoscale): the "k8s\0"
// envelope (runtime.Unknown) around the object, decoded here for the kinds those clients write,
// with the field numbers of k8s.io/api's generated.proto. Other kinds get 415, naming the ones
// that are understood. Responses are always JSON, which client-go reads by their Content-Type.
import { ApiError } from './status.js';

type FieldType = 'string' | 'bytes' | 'int' | 'bool' | 'time' | 'stringMap' | 'bytesMap' | 'strings' | Schema | { repeated: Schema };

interface Schema {
  [field: number]: [name: string, type: FieldType];
}

const time: Schema = { 1: ['seconds', 'int'], 2: ['nanos', 'int'] };
const ownerReference: Schema = {
  1: ['kind', 'string'],
  3: ['name', 'string'],
  4: ['uid', 'string'],
  5: ['apiVersion', 'string'],
  6: ['controller', 'bool'],
  7: ['blockOwnerDeletion', 'bool'],
};
const objectMeta: Schema = {
  1: ['name', 'string'],
  2: ['generateName', 'string'],
  3: ['namespace', 'string'],
  5: ['uid', 'string'],
  6: ['resourceVersion', 'string'],
  7: ['generation', 'int'],
  8: ['creationTimestamp', 'time'],
  9: ['deletionTimestamp', 'time'],
  10: ['deletionGracePeriodSeconds', 'int'],
  11: ['labels', 'stringMap'],
  12: ['annotations', 'stringMap'],
  13: ['ownerReferences', { repeated: ownerReference }],
  14: ['finalizers', 'strings'],
};
const deleteOptions: Schema = {
  1: ['gracePeriodSeconds', 'int'],
  2: ['preconditions', { 1: ['uid', 'string'], 2: ['resourceVersion', 'string'] }],
  3: ['orphanDependents', 'bool'],
  4: ['propagationPolicy', 'string'],
  5: ['dryRun', 'strings'],
};

const schemas: Record<string, Schema> = {
  Secret: {
    1: ['metadata', objectMeta],
    2: ['data', 'bytesMap'],
    3: ['type', 'string'],
    4: ['stringData', 'stringMap'],
    5: ['immutable', 'bool'],
  },
  ConfigMap: { 1: ['metadata', objectMeta], 2: ['data', 'stringMap'], 3: ['binaryData', 'bytesMap'], 4: ['immutable', 'bool'] },
  Namespace: { 1: ['metadata', objectMeta], 2: ['spec', { 1: ['finalizers', 'strings'] }] },
  ServiceAccount: { 1: ['metadata', objectMeta], 4: ['automountServiceAccountToken', 'bool'] },
  DeleteOptions: deleteOptions,
  Eviction: { 1: ['metadata', objectMeta], 2: ['deleteOptions', deleteOptions] },
  // kubectl autoscale (1.32) creates autoscaling/v1 HPAs.
  'autoscaling/v1 HorizontalPodAutoscaler': {
    1: ['metadata', objectMeta],
    2: [
      'spec',
      {
        1: ['scaleTargetRef', { 1: ['kind', 'string'], 2: ['name', 'string'], 3: ['apiVersion', 'string'] }],
        2: ['minReplicas', 'int'],
        3: ['maxReplicas', 'int'],
        4: ['targetCPUUtilizationPercentage', 'int'],
      },
    ],
  },
};

class Reader {
  pos = 0;
  constructor(readonly buf: Buffer) {}

  get done(): boolean {
    return this.pos >= this.buf.length;
  }

  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.buf.length) throw new Error('truncated varint');
      const b = this.buf[this.pos++];
      result |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return result;
      shift += 7n;
    }
  }

  bytes(): Buffer {
    const len = Number(this.varint());
    const out = this.buf.subarray(this.pos, this.pos + len);
    if (out.length !== len) throw new Error('truncated field');
    this.pos += len;
    return out;
  }

  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) this.bytes();
    else if (wire === 5) this.pos += 4;
    else throw new Error(`unsupported wire type ${wire}`);
  }
}

function rfc3339(t: Record<string, unknown>): string {
  return new Date(Number(t.seconds ?? 0) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function decode(buf: Buffer, schema: Schema): Record<string, unknown> {
  const r = new Reader(buf);
  const out: Record<string, unknown> = {};
  while (!r.done) {
    const key = Number(r.varint());
    const field = key >> 3;
    const wire = key & 7;
    const spec = schema[field];
    if (!spec) {
      r.skip(wire);
      continue;
    }
    const [name, type] = spec;
    if (type === 'int') {
      const v = r.varint();
      out[name] = Number(BigInt.asIntN(64, v));
    } else if (type === 'bool') out[name] = r.varint() !== 0n;
    else if (type === 'string') {
      // Go writes every string field, empty ones too; its JSON would omit them (omitempty).
      const text = r.bytes().toString('utf8');
      if (text !== '') out[name] = text;
    } else if (type === 'bytes') out[name] = r.bytes().toString('base64');
    else if (type === 'strings') ((out[name] ??= []) as string[]).push(r.bytes().toString('utf8'));
    else if (type === 'time') {
      // The zero time.Time (year 1) is "not set".
      const t = decode(r.bytes(), time);
      if (Number(t.seconds ?? 0) > 0) out[name] = rfc3339(t);
    } else if (type === 'stringMap' || type === 'bytesMap') {
      const entry = decode(r.bytes(), { 1: ['key', 'string'], 2: ['value', type === 'stringMap' ? 'string' : 'bytes'] });
      (out[name] ??= {}) as Record<string, unknown>;
      (out[name] as Record<string, unknown>)[String(entry.key ?? '')] = entry.value ?? '';
    } else if ('repeated' in type) ((out[name] ??= []) as unknown[]).push(decode(r.bytes(), type.repeated as Schema));
    else out[name] = decode(r.bytes(), type as Schema);
  }
  return out;
}

const magic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** The object in a protobuf request body, as the JSON the rest of the server handles. */
export function decodeProtobufBody(body: Buffer): unknown {
  if (!body.subarray(0, 4).equals(magic))
    throw new ApiError(400, 'BadRequest', 'the body of the request is not a Kubernetes protobuf object (no k8s\\0 prefix)');
  const unknown = decode(body.subarray(4), {
    1: ['typeMeta', { 1: ['apiVersion', 'string'], 2: ['kind', 'string'] }],
    2: ['raw', 'bytes'],
  });
  const typeMeta = (unknown.typeMeta ?? {}) as { apiVersion?: string; kind?: string };
  const schema = schemas[`${typeMeta.apiVersion} ${typeMeta.kind}`] ?? schemas[typeMeta.kind ?? ''];
  if (!schema)
    throw new ApiError(
      415,
      'UnsupportedMediaType',
      `the API test server decodes protobuf bodies of ${Object.keys(schemas)
        .map((k) => k.split(' ').pop())
        .join(', ')} only, not ${typeMeta.kind}: send application/json`,
    );
  const object = decode(Buffer.from(String(unknown.raw ?? ''), 'base64'), schema);
  return { apiVersion: typeMeta.apiVersion, kind: typeMeta.kind, ...object };
}
