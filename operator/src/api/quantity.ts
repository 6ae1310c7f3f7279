// Kubernetes resource quantities (`4Gi`, `512M`, `1.5`, `500m`, `1e3`) as numbers, and bytes back as a
// quantity. The API server has already checked a quantity's form; an unreadable one is undefined.

const SUFFIXES: Record<string, number> = {
  '': 1,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

const QUANTITY = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E)?)$/;

export function parseQuantity(quantity: string | number): number | undefined {
  if (typeof quantity === 'number') return quantity;
  const match = QUANTITY.exec(quantity.trim());
  if (!match) return undefined;
  const [, number, exponent, suffix] = match;
  return exponent ? Number(`${number}${exponent}`) : Number(number) * SUFFIXES[suffix ?? ''];
}

/** Whole mebibytes, rounded up: `1366Mi`. */
export function mebibytes(bytes: number): string {
  return `${Math.ceil(bytes / 2 ** 20)}Mi`;
}
