// Parley's JavaScript client SDK: plain ES modules, no dependencies, for browsers and Node ≥ 20.
export { ParleyClient } from "./client.js";
export { MessageCollection } from "./collection.js";
export { ParleyError } from "./errors.js";
export { defaultSettings } from "./connection.js";
