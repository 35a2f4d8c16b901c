import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

// TypeScript apps get the declarations in index.d.ts: they must type-check an app's code. tsc
// comes from Debian's node-typescript (scripts/test-js-client installs it).
test("the TypeScript declarations type-check an app's code", () => {
  const args = ["--noEmit", "--strict", "--target", "es2022", "--lib", "es2022,dom,dom.iterable", "--module", "es2022", "--moduleResolution", "node", "--skipLibCheck", "false"];
  let output = "";
  try {
    output = execFileSync("tsc", [...args, join(here, "types-check.ts")], { encoding: "utf8" });
  } catch (error) {
    output = `${error.stdout ?? ""}${error.stderr ?? ""}${error.message}`;
    assert.fail(output);
  }
  assert.equal(output.trim(), "");
});
