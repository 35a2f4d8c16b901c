import { ParleyError } from "./errors.js";

/** A path segment: channel URLs and user ids may hold any character. */
export const segment = (text) => encodeURIComponent(String(text));

/**
 * The REST calls of API.md as the signed-in user: JSON in and out, the session token in a header
 * (never in the URL), once more with a renewed token when the server refuses it.
 */
export class RestClient {
  constructor(baseUrl, credentials, fetchImpl) {
    this.baseUrl = String(baseUrl).replace(/\/+$/, "");
    this.credentials = credentials;
    this.fetch = fetchImpl ?? globalThis.fetch.bind(globalThis);
  }

  /**
   * `path` (already escaped) with the query's defined values; arrays are comma-separated. Spaces
   * are `%20`, not URLSearchParams' `+`: the server reads a `+` in a query as a plus sign.
   */
  url(path, query = {}) {
    const pairs = [];
    for (const [name, value] of Object.entries(query)) {
      if (value === undefined || value === null) continue;
      pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(Array.isArray(value) ? value.join(",") : String(value))}`);
    }
    return this.baseUrl + path + (pairs.length ? `?${pairs.join("&")}` : "");
  }

  /** `method path?query` with an optional JSON body; the answer's JSON (`{}` when empty). */
  async call(method, path, { query, body } = {}) {
    const response = await this.perform(method, path, { query, contentType: body === undefined ? null : "application/json" }, (init) =>
      this.fetch(init.url, { ...init, body: body === undefined ? undefined : JSON.stringify(body) }),
    );
    const text = await response.text();
    if (!text) return {};
    try {
      return JSON.parse(text);
    } catch {
      throw new ParleyError(0, response.status, `Unexpected answer from the server: ${text.slice(0, 200)}`);
    }
  }

  /**
   * Sends the request `send` makes from `init` (url, method, headers, signal), with the session
   * token; again with a renewed one when refused. Resolves to a successful `Response`.
   */
  async perform(method, path, { query, contentType, signal } = {}, send) {
    let token = this.credentials.token;
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const headers = { "Session-Token": token, Accept: "application/json" };
      if (contentType) headers["Content-Type"] = contentType;
      let response;
      try {
        response = await send({ url: this.url(path, query), method, headers, signal });
      } catch (error) {
        throw ParleyError.transport(error);
      }
      if (response.ok) return response;
      const failure = await RestClient.error(response);
      if (!failure.isInvalidSessionToken || attempt > 0) throw failure;
      token = await this.credentials.renew(token);
    }
    throw new ParleyError(0, 0, "unreachable");
  }

  /** The error body of API.md §1.5 (`{"error": true, "code", "message"}`), or the status alone. */
  static async error(response) {
    const text = await response.text().catch(() => "");
    try {
      const body = JSON.parse(text);
      return new ParleyError(body.code ?? 0, response.status, body.message ?? `HTTP ${response.status}`);
    } catch {
      return new ParleyError(0, response.status, text || `HTTP ${response.status}`);
    }
  }
}

/** The client's REST caller and the signed-in user's own path (`/v3/users/{user_id}`). */
export function signedIn(client) {
  const rest = client.rest();
  return [rest, `/v3/users/${segment(rest.credentials.userId)}`];
}

/** `{ limit, token }` of a paged list. */
export const page = (options = {}) => ({ limit: options.limit ?? 20, token: options.token });

/** A list answer `{ <key>: [...], next }` as `{ items, next, hasMore }`. */
export function toPage(body, key) {
  const items = body[key] ?? Object.values(body).find(Array.isArray) ?? [];
  const next = body.next ?? "";
  return { items, next, hasMore: next !== "" };
}
