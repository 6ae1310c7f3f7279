// Pod volumes on the local disk: each volume is a folder of the pod's folder (ConfigMap and Secret
// keys as files, downward API fields, emptyDir), and a container's volumeMounts map its mountPath
// to that folder. With no mount namespace, a process sees the folders at their host paths, so the
// kubelet rewrites paths in what the container is given (command, args, env values, workingDir,
// exec probes and hooks): every word that is a mountPath or starts with mountPath + "/" (also
// after "=", as in --config=/etc/engine/config.json, and in a file: URL) points into the volume's
// folder instead. The text files of ConfigMap, Secret, downward API and projected volumes are
// rewritten the same way, so a configuration file naming a mounted folder
// (`file:///var/lib/engine/lake` over a hostPath volume) names the folder the process sees; a
// mountPath that the pod's containers map to different folders is left as it is. A hostPath volume
// is the host's folder itself, so every pod mounting it shares its files, as on one real node.
import fs from 'node:fs';
import path from 'node:path';
import type { KubeObject } from '../apiserver/types.js';
import { kinds, type Objects } from '../cluster/objects.js';
import { fieldRefValue, type PodAddresses } from './downward.js';
import { podSpec, type Container, type DownwardItem, type KeyToPath, type Volume } from './pod-spec.js';

export class VolumeError extends Error {
  constructor(
    readonly volume: string,
    message: string,
  ) {
    super(`MountVolume.SetUp failed for volume "${volume}" : ${message}`);
  }
}

interface FileContent {
  data: Buffer;
  mode: number;
}

type Files = Map<string, FileContent>;

export interface Mount {
  mountPath: string;
  hostPath: string;
}

function keyFiles(
  kind: 'configmap' | 'secret',
  name: string,
  data: Map<string, Buffer> | undefined,
  items: KeyToPath[] | undefined,
  optional: boolean,
  mode: number,
  volume: string,
): Files {
  const files: Files = new Map();
  if (!data) {
    if (optional) return files;
    throw new VolumeError(volume, `${kind} ${JSON.stringify(name)} not found`);
  }
  if (!items?.length) {
    for (const [key, value] of data) files.set(key, { data: value, mode });
    return files;
  }
  for (const item of items) {
    const value = data.get(item.key);
    if (value === undefined) {
      if (optional) continue;
      throw new VolumeError(volume, `${kind === 'configmap' ? 'configmap' : 'secret'} references non-existent config key: ${item.key}`);
    }
    files.set(item.path, { data: value, mode: item.mode ?? mode });
  }
  return files;
}

export function configMapData(cm: KubeObject | undefined): Map<string, Buffer> | undefined {
  if (!cm) return undefined;
  const out = new Map<string, Buffer>();
  for (const [k, v] of Object.entries((cm.data as Record<string, string> | undefined) ?? {})) out.set(k, Buffer.from(v, 'utf8'));
  for (const [k, v] of Object.entries((cm.binaryData as Record<string, string> | undefined) ?? {})) out.set(k, Buffer.from(v, 'base64'));
  return out;
}

export function secretData(secret: KubeObject | undefined): Map<string, Buffer> | undefined {
  if (!secret) return undefined;
  return new Map(Object.entries((secret.data as Record<string, string> | undefined) ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64')]));
}

const defaultMode = 0o644;

export class PodVolumes {
  private readonly root: string;

  constructor(
    private readonly pod: KubeObject,
    podDir: string,
    private readonly objects: Objects,
    private readonly addresses: PodAddresses,
  ) {
    this.root = path.join(podDir, 'volumes');
  }

  private get volumes(): Volume[] {
    return podSpec(this.pod).volumes ?? [];
  }

  dirOf(volume: string): string {
    return path.join(this.root, volume);
  }

  /** Writes every volume (again, for an update of a ConfigMap or Secret); throws VolumeError. */
  setUp(): void {
    const rewrite = pathRewriter(this.podMounts());
    for (const v of this.volumes) {
      const name = v.name;
      const dir = this.dirOf(name);
      if (v.emptyDir) fs.mkdirSync(dir, { recursive: true });
      else if (v.hostPath) {
        const hp = v.hostPath;
        if (hp.type === 'DirectoryOrCreate') fs.mkdirSync(hp.path, { recursive: true });
        else if (hp.type === 'Directory' && !fs.existsSync(hp.path))
          throw new VolumeError(name, `hostPath type check failed: ${hp.path} is not a directory`);
      } else writeFiles(dir, rewrittenText(this.filesOf(v), rewrite));
    }
  }

  /** The mounts of all the pod's containers, but for a mountPath that two containers map to different folders. */
  private podMounts(): Mount[] {
    const spec = podSpec(this.pod);
    const byPath = new Map<string, string | undefined>();
    for (const c of [...(spec.initContainers ?? []), ...spec.containers])
      for (const m of this.mountsFor(c))
        byPath.set(m.mountPath, byPath.has(m.mountPath) && byPath.get(m.mountPath) !== m.hostPath ? undefined : m.hostPath);
    return [...byPath].filter((e): e is [string, string] => e[1] !== undefined).map(([mountPath, hostPath]) => ({ mountPath, hostPath }));
  }

  /** Whether a volume of this pod is fed by the ConfigMap or Secret `name`. */
  uses(kind: 'configmap' | 'secret', name: string): boolean {
    return this.volumes.some((v) => {
      if (kind === 'configmap') return v.configMap?.name === name || (v.projected?.sources ?? []).some((s) => s.configMap?.name === name);
      return v.secret?.secretName === name || (v.projected?.sources ?? []).some((s) => s.secret?.name === name);
    });
  }

  private filesOf(v: Volume): Files {
    const name = v.name;
    const ns = this.pod.metadata.namespace!;
    const fromConfigMap = (c: { name: string; items?: KeyToPath[]; optional?: boolean }, mode: number) =>
      keyFiles(
        'configmap',
        c.name,
        configMapData(this.objects.get(kinds.configMaps, ns, c.name)),
        c.items,
        c.optional === true,
        mode,
        name,
      );
    const fromSecret = (secretName: string, c: { items?: KeyToPath[]; optional?: boolean }, mode: number) =>
      keyFiles('secret', secretName, secretData(this.objects.get(kinds.secrets, ns, secretName)), c.items, c.optional === true, mode, name);
    if (v.configMap) return fromConfigMap(v.configMap, v.configMap.defaultMode ?? defaultMode);
    if (v.secret) return fromSecret(v.secret.secretName, v.secret, v.secret.defaultMode ?? defaultMode);
    if (v.downwardAPI) return this.downwardFiles(v.downwardAPI.items ?? [], v.downwardAPI.defaultMode ?? defaultMode, name);
    if (v.projected) {
      const mode = v.projected.defaultMode ?? defaultMode;
      const files: Files = new Map();
      for (const s of v.projected.sources ?? []) {
        let part: Files;
        if (s.configMap) part = fromConfigMap(s.configMap, mode);
        else if (s.secret) part = fromSecret(s.secret.name, s.secret, mode);
        else if (s.downwardAPI) part = this.downwardFiles(s.downwardAPI.items ?? [], mode, name);
        else
          throw new VolumeError(
            name,
            `projected source ${Object.keys(s).join(',')} is not supported by the process kubelet (configMap, secret and downwardAPI are)`,
          );
        for (const [k, f] of part) files.set(k, f);
      }
      return files;
    }
    const type = Object.keys(v).find((k) => k !== 'name') ?? 'none';
    throw new VolumeError(
      name,
      `volume type ${type} is not supported by the process kubelet (configMap, secret, emptyDir, hostPath, downwardAPI and projected are)`,
    );
  }

  private downwardFiles(items: DownwardItem[], mode: number, volume: string): Files {
    const files: Files = new Map();
    for (const item of items) {
      if (!item.fieldRef) throw new VolumeError(volume, `downwardAPI item ${item.path}: only fieldRef is supported by the process kubelet`);
      const value = fieldRefValue(this.pod, item.fieldRef.fieldPath, this.addresses);
      if (value === undefined)
        throw new VolumeError(volume, `downwardAPI item ${item.path}: unsupported fieldPath ${item.fieldRef.fieldPath}`);
      files.set(item.path, { data: Buffer.from(value, 'utf8'), mode: item.mode ?? mode });
    }
    return files;
  }

  /** The container's mounts, longest mountPath first (so nested mounts win). */
  mountsFor(container: Container): Mount[] {
    const mounts: Mount[] = [];
    for (const m of container.volumeMounts ?? []) {
      const v = this.volumes.find((x) => x.name === m.name);
      if (!v) continue;
      const base = v.hostPath ? v.hostPath.path : this.dirOf(m.name);
      mounts.push({ mountPath: m.mountPath.replace(/\/+$/, '') || '/', hostPath: m.subPath ? path.join(base, m.subPath) : base });
    }
    return mounts.sort((a, b) => b.mountPath.length - a.mountPath.length);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The files with mount paths rewritten in those that are UTF-8 text (binary files, keystores say, are left as they are). */
function rewrittenText(files: Files, rewrite: (text: string) => string): Files {
  const out: Files = new Map();
  for (const [name, f] of files) {
    let text: string | undefined;
    try {
      text = f.data.includes(0) ? undefined : utf8.decode(f.data);
    } catch {
      text = undefined;
    }
    const rewritten = text === undefined ? undefined : rewrite(text);
    out.set(name, rewritten === undefined || rewritten === text ? f : { data: Buffer.from(rewritten, 'utf8'), mode: f.mode });
  }
  return out;
}

/** Writes files atomically (temporary name, then rename) and removes the ones no longer there. */
function writeFiles(dir: string, files: Files): void {
  fs.mkdirSync(dir, { recursive: true });
  for (const [rel, f] of files) {
    const target = path.join(dir, rel);
    if (!target.startsWith(dir + path.sep)) continue;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const tmp = `${target}.tmp-${process.pid}`;
    fs.writeFileSync(tmp, f.data, { mode: f.mode });
    fs.chmodSync(tmp, f.mode);
    fs.renameSync(tmp, target);
  }
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const rel = path.relative(dir, path.join(entry.parentPath, entry.name));
    if (!files.has(rel)) fs.rmSync(path.join(dir, rel), { force: true });
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Rewrites mountPaths in a string to the volumes' folders (see the comment at the top). */
export function pathRewriter(mounts: Mount[]): (text: string) => string {
  if (mounts.length === 0) return (text) => text;
  const byPath = new Map(mounts.map((m) => [m.mountPath, m.hostPath]));
  const alternatives = mounts.map((m) => escapeRegExp(m.mountPath)).join('|');
  const re = new RegExp(`(^|[\\s=:,;'"(]|file://)(${alternatives})(?=$|[/\\s,;:'")])`, 'g');
  return (text) => text.replace(re, (_all, lead: string, mountPath: string) => lead + byPath.get(mountPath));
}
