// The little XML S3 speaks: flat elements of text (ListObjectsV2, errors, multipart uploads,
// DeleteObjects). Values are read by element name; no general parser is needed for these shapes.

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeXmlText(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (entity: string, name: string) => {
    if (name.startsWith('#x')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
    return ENTITIES[name] ?? entity;
  });
}

export function encodeXmlText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&${Object.keys(ENTITIES).find((name) => ENTITIES[name] === c)!};`);
}

/** The raw (undecoded) contents of every `<tag>...</tag>` (and `<tag/>`) in `xml`, in order. */
export function elementBodies(xml: string, tag: string): string[] {
  const pattern = new RegExp(`<${tag}(?:\\s[^>]*)?(?:/>|>([\\s\\S]*?)</${tag}>)`, 'g');
  return [...xml.matchAll(pattern)].map((match) => match[1] ?? '');
}

/** The decoded text of the first `<tag>` in `xml`, or undefined. */
export function elementText(xml: string, tag: string): string | undefined {
  const body = elementBodies(xml, tag)[0];
  return body === undefined ? undefined : decodeXmlText(body);
}

/** An S3 error document's code and message (`<Error><Code>NoSuchKey</Code><Message>...`). */
export interface S3ErrorBody {
  code: string;
  message: string;
}

export function parseErrorBody(xml: string): S3ErrorBody | undefined {
  const error = elementBodies(xml, 'Error')[0];
  if (error === undefined) return undefined;
  const code = elementText(error, 'Code');
  return code === undefined ? undefined : { code, message: elementText(error, 'Message') ?? '' };
}
