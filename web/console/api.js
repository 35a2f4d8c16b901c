// The console's calls: the documented API with the API token (in memory only, never in a URL or
// in storage), the same requests an operator would make with curl.

export class AdminAPI {
  constructor(baseUrl, token) {
    this.baseUrl = baseUrl;
    this.token = token;
  }

  async call(method, path, { query, body } = {}) {
    const pairs = Object.entries(query ?? {})
      .filter(([, value]) => value !== undefined && value !== null && value !== "")
      .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(Array.isArray(value) ? value.join(",") : String(value))}`);
    const url = this.baseUrl + path + (pairs.length ? `?${pairs.join("&")}` : "");
    const headers = { "Api-Token": this.token, Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "omit", cache: "no-store" });
    const text = await response.text();
    if (!response.ok) {
      let message = `HTTP ${response.status}`;
      try {
        const error = JSON.parse(text);
        message = `${error.message} (${error.code})`;
      } catch {
        // Not the API's error body.
      }
      throw Object.assign(new Error(message), { status: response.status });
    }
    if (response.headers.get("content-type")?.includes("json")) return text ? JSON.parse(text) : {};
    return text;
  }

  get(path, query) {
    return this.call("GET", path, { query });
  }

  put(path, body) {
    return this.call("PUT", path, { body });
  }

  post(path, body) {
    return this.call("POST", path, { body });
  }

  delete(path, query) {
    return this.call("DELETE", path, { query });
  }
}

export const seg = encodeURIComponent;
