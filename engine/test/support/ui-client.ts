// The web interface's JSON endpoints as a signed-in browser uses them: sign in once (the cookie the
// server sets), then every request carries it.

export interface UiAnswer<T> {
  status: number;
  headers: Headers;
  body: T;
}

export class UiClient {
  private constructor(
    readonly base: string,
    private readonly cookie: string,
  ) {}

  /** Signs in as `user` through POST /ui/api/login. */
  static async signIn(base: string, user: string): Promise<UiClient> {
    const response = await fetch(`${base}/ui/api/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ user }),
    });
    if (response.status !== 200) throw new Error(`login answered ${response.status}: ${await response.text()}`);
    const cookie = response.headers.get('set-cookie')?.split(';')[0];
    if (!cookie) throw new Error('login set no cookie');
    return new UiClient(base, cookie);
  }

  get<T>(path: string): Promise<UiAnswer<T>> {
    return this.request<T>('GET', path);
  }

  request<T>(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<UiAnswer<T>> {
    return uiRequest<T>(
      `${this.base}${path}`,
      method,
      { Cookie: this.cookie, ...(body === undefined ? {} : { 'Content-Type': contentType }) },
      body === undefined ? undefined : JSON.stringify(body),
    );
  }
}

export async function uiRequest<T>(url: string, method: string, headers: Record<string, string>, body?: string): Promise<UiAnswer<T>> {
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // Not JSON: the text itself.
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}
