// A real Parley server (`parley serve`, the repository's debug build) on the test database
// (PARLEY_TEST_DATABASE_URL, migrated by scripts/test-js-client), on a port of its own. It can be
// killed like a crashed instance and started again on the same port and data.
import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { ParleyClient } from "../src/index.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const apiToken = `js_${randomUUID().replace(/-/g, "")}`;
const handedOut = new Set();

export class ParleyServer {
  /** `environment`: more of the server's configuration (PARLEY_…). */
  static async start(port, environment = {}) {
    const server = new ParleyServer(port ?? (await freePort()), environment);
    await server.start();
    return server;
  }

  constructor(port, environment = {}) {
    this.port = port;
    this.environment = environment;
    this.fileKey = randomBytes(32).toString("base64");
    this.fileDirectory = join(tmpdir(), `parley-js-${randomUUID()}`);
    this.process = null;
  }

  get baseUrl() {
    return `http://127.0.0.1:${this.port}`;
  }

  async start() {
    const database = process.env.PARLEY_TEST_DATABASE_URL;
    if (!database) throw new Error("PARLEY_TEST_DATABASE_URL is not set: run scripts/test-js-client");
    const binary = process.env.PARLEY_BINARY ?? join(root, ".build/debug/parley");
    const child = spawn(binary, ["serve"], {
      env: {
        ...process.env,
        DATABASE_URL: database,
        PARLEY_API_TOKEN: apiToken,
        PARLEY_FILE_KEY: this.fileKey,
        PARLEY_PORT: String(this.port),
        PARLEY_HOST: "127.0.0.1",
        PARLEY_LOG_LEVEL: "error",
        PARLEY_FILE_DIR: this.fileDirectory,
        PARLEY_MIGRATIONS_DIR: join(root, "migrations"),
        PARLEY_PUBLIC_URL: this.baseUrl,
        // The tests send faster than a person: no flood limit.
        PARLEY_FLOOD_MESSAGES_PER_SECOND: "0",
        // Every test's requests come from 127.0.0.1: no limits per address either.
        PARLEY_AUTH_FAILURES_PER_MINUTE: "0",
        PARLEY_UPLOADS_PER_MINUTE: "0",
        ...this.environment,
      },
      stdio: ["ignore", "ignore", "inherit"],
    });
    this.process = child;
    let exited = null;
    child.once("exit", (code) => (exited = code ?? "signal"));
    for (let i = 0; i < 300; i += 1) {
      // Its own answer, not another server's on the same port.
      if (exited !== null) throw new Error(`parley serve exited (${exited}) on port ${this.port}`);
      const ready = await fetch(`${this.baseUrl}/ready`).then((r) => r.status === 200, () => false);
      if (ready) return;
      await sleep(100);
    }
    throw new Error(`parley serve did not start on port ${this.port}`);
  }

  /** As a crash: SIGKILL, no goodbye. */
  async kill() {
    await this.end("SIGKILL");
  }

  async stop() {
    await this.end("SIGTERM");
  }

  async end(signal) {
    const child = this.process;
    if (!child) return;
    this.process = null;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((resolve) => child.once("exit", resolve));
    child.kill(signal);
    await gone;
  }

  /** What the app's backend does with the API token. */
  async admin(method, path, body) {
    const response = await fetch(this.baseUrl + path, {
      method,
      headers: { "Api-Token": apiToken, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : {};
  }

  /** A new user and a session token for them. */
  async user(prefix) {
    const userId = `${prefix}-${randomUUID().slice(0, 8)}`;
    await this.admin("POST", "/v3/users", { user_id: userId, nickname: prefix[0].toUpperCase() + prefix.slice(1), profile_url: "" });
    return { userId, token: await this.token(userId) };
  }

  async token(userId, expiresAt) {
    return (await this.admin("POST", `/v3/users/${userId}/token`, expiresAt ? { expires_at: expiresAt } : {})).token;
  }

  /** A new user, signed in with the SDK. */
  async connected(prefix, options) {
    const { userId, token } = await this.user(prefix);
    const client = new ParleyClient(this.baseUrl, options);
    await client.connect(userId, token);
    return { client, userId };
  }
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `condition` until it holds or `seconds` pass; whether it held. */
export async function eventually(condition, seconds = 10) {
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    if (await condition()) return true;
    await sleep(25);
  }
  return Boolean(await condition());
}

/** Reconnections within 2 s, so the tests do not wait for the protocol's 30 s backoff. */
export const quick = { settings: { maximumBackoff: 2 } };

async function freePort() {
  for (;;) {
    const port = await new Promise((resolve, reject) => {
      const probe = createServer();
      probe.once("error", reject);
      probe.listen(0, "127.0.0.1", () => {
        const { port } = probe.address();
        probe.close(() => resolve(port));
      });
    });
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}
