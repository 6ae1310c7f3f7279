// Figures as people read them: 1.5 GB, 2.3 s, 12.4K rows, 45%.

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

export function bytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '–';
  let value = n;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value.toFixed(0) : value.toFixed(value < 10 ? 2 : value < 100 ? 1 : 0)} ${BYTE_UNITS[unit]}`;
}

export function millis(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(s < 10 ? 2 : 1)} s`;
  const m = s / 60;
  if (m < 60) return `${Math.floor(m)}m ${Math.round(s % 60)}s`;
  const h = m / 60;
  if (h < 24) return `${Math.floor(h)}h ${Math.round(m % 60)}m`;
  return `${Math.floor(h / 24)}d ${Math.round(h % 24)}h`;
}

export function count(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '–';
  const abs = Math.abs(n);
  if (abs < 1000) return Number.isInteger(n) ? String(n) : n.toFixed(1);
  const units: Array<[number, string]> = [
    [1e12, 'T'],
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'K'],
  ];
  const [size, suffix] = units.find(([size]) => abs >= size)!;
  const value = n / size;
  return `${value.toFixed(Math.abs(value) < 10 ? 2 : Math.abs(value) < 100 ? 1 : 0)}${suffix}`;
}

export function percent(fraction: number | null | undefined): string {
  if (fraction === null || fraction === undefined || !Number.isFinite(fraction)) return '–';
  return `${(fraction * 100).toFixed(fraction < 0.1 ? 1 : 0)}%`;
}

export function time(epochMillis: number | null | undefined): string {
  if (epochMillis === null || epochMillis === undefined) return '–';
  return new Date(epochMillis).toLocaleString();
}

/** Airlift's durations ("1.23s", "250.00ms", "2.00m") in milliseconds; 0 for anything else. */
export function durationMillis(text: string | undefined): number {
  const match = /^([\d.]+)\s*(ns|us|ms|s|m|h|d)$/.exec(text ?? '');
  if (!match) return 0;
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  return Number(match[1]) * units[match[2]!]!;
}

/** Airlift's sizes ("1.50kB", "12B", "3.2MB") in bytes; 0 for anything else. */
export function sizeBytes(text: string | undefined): number {
  const match = /^([\d.]+)\s*(B|kB|KB|MB|GB|TB|PB)$/.exec(text ?? '');
  if (!match) return 0;
  const units: Record<string, number> = { B: 1, kB: 1024, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4, PB: 1024 ** 5 };
  return Number(match[1]) * units[match[2]!]!;
}
