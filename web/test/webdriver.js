// A small W3C WebDriver client for the browser tests: Debian's chromedriver driving headless
// Chromium, one browser (and so one profile, cookies and storage of its own) per session.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const element = "element-6066-11e4-a52e-4f735466cecf";
// The run's mark in every chromedriver's and browser's command line (scripts/test-web sets it):
// the next run stops what a run killed midway left behind.
const run = process.env.PARLEY_WEB_RUN ?? "0";

export class ChromeDriver {
  static async start() {
    const port = await freePort();
    const args = [`--port=${port}`, "--log-level=SEVERE", `--log-path=${join(tmpdir(), `parley-chromedriver-${run}.log`)}`];
    const process = spawn("chromedriver", args, { stdio: "ignore" });
    const driver = new ChromeDriver(port, process);
    for (let i = 0; i < 100; i += 1) {
      const ready = await fetch(`${driver.base}/status`).then((r) => r.json(), () => null);
      if (ready?.value?.ready) return driver;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error("chromedriver did not start");
  }

  constructor(port, process) {
    this.base = `http://127.0.0.1:${port}`;
    this.process = process;
  }

  /** A new browser. */
  async browser() {
    const options = {
      binary: process.env.CHROMIUM_BINARY ?? "/usr/bin/chromium",
      args: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,860", `--user-data-dir=${mkdtempSync(join(tmpdir(), `parley-chromium-${run}-`))}`],
    };
    const session = await command(`${this.base}/session`, "POST", { capabilities: { alwaysMatch: { browserName: "chrome", "goog:chromeOptions": options, "goog:loggingPrefs": { browser: "ALL" } } } });
    return new Browser(`${this.base}/session/${session.sessionId}`);
  }

  stop() {
    this.process.kill();
  }
}

export class Browser {
  constructor(base) {
    this.base = base;
  }

  call(method, path, body) {
    return command(this.base + path, method, body);
  }

  go(url) {
    return this.call("POST", "/url", { url });
  }

  async find(css) {
    const found = await this.call("POST", "/element", { using: "css selector", value: css });
    return found[element];
  }

  /** Waits until `css` matches (and, when given, its text holds `text`); its element id. */
  async waitFor(css, { text, timeout = 15_000 } = {}) {
    const end = Date.now() + timeout;
    let last = "";
    while (Date.now() < end) {
      const matches = await this.call("POST", "/elements", { using: "css selector", value: css });
      for (const match of matches) {
        last = await this.call("GET", `/element/${match[element]}/text`).catch(() => "");
        if (text === undefined || last.includes(text)) return match[element];
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`waited ${timeout} ms for ${css}${text === undefined ? "" : ` holding "${text}"`} (last text: "${last}")`);
  }

  async click(css, options) {
    await this.fresh(async () => this.call("POST", `/element/${await this.waitFor(css, options)}/click`, {}));
  }

  async type(css, text) {
    await this.fresh(async () => this.call("POST", `/element/${await this.waitFor(css)}/value`, { text }));
  }

  /** Runs `action` again when the page re-rendered the element between finding and using it. */
  async fresh(action) {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await action();
      } catch (error) {
        if (attempt >= 5 || !String(error.message).includes("stale element")) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  async text(css) {
    return this.call("GET", `/element/${await this.waitFor(css)}/text`);
  }

  execute(script, ...args) {
    return this.call("POST", "/execute/sync", { script, args });
  }

  /** A PNG of the window. */
  async screenshot() {
    return Buffer.from(await this.call("GET", "/screenshot"), "base64");
  }

  /** Messages of the browser's console (errors, CSP violations). */
  async consoleErrors() {
    const entries = await this.call("POST", "/se/log", { type: "browser" }).catch(() => []);
    return entries.filter((entry) => entry.level === "SEVERE").map((entry) => entry.message);
  }

  quit() {
    return this.call("DELETE", "", undefined).catch(() => {});
  }
}

async function command(url, method, body) {
  const response = await fetch(url, { method, headers: { "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await response.json();
  if (!response.ok) throw new Error(`WebDriver ${method} ${url}: ${json.value?.error} ${json.value?.message?.split("\n")[0]}`);
  return json.value;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}
