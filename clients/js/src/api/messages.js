import { ParleyError } from "../errors.js";
import { segment } from "../rest.js";
import { multipartForm, sendWithProgress } from "../upload.js";

/**
 * Messages of group and open channels (API.md §4–5, §9, §13.1). `options.channelType` is
 * `group` (the default) or `open`. A send carries a `dedup_id` (made when the params have none):
 * sending the same params again with it after a failure gets the first message back, never a
 * second one.
 */
export class MessageAPI {
  constructor(client) {
    this.client = client;
  }

  path(channelUrl, options = {}, rest = "") {
    const kind = options.channelType === "open" ? "open_channels" : "group_channels";
    return `/v3/${kind}/${segment(channelUrl)}/messages${rest}`;
  }

  /** `params`: `{ message, custom_type, data, mentioned_user_ids, sorted_metaarray, target_langs, parent_message_id, poll_id, dedup_id, … }`. */
  sendUserMessage(channelUrl, params, options) {
    const body = { message_type: "MESG", ...params, dedup_id: params.dedup_id ?? crypto.randomUUID() };
    return this.client.rest().call("POST", this.path(channelUrl, options), { body });
  }

  /**
   * Uploads a file as a file message. `params`: `{ file (Blob, File, ArrayBuffer or typed array),
   * file_name, file_type, thumbnail_sizes: [[w, h], …], custom_type, data, parent_message_id,
   * dedup_id }`; `options.onProgress(sent, total)` hears the upload, `options.signal` cancels it.
   */
  sendFileMessage(channelUrl, params, options = {}) {
    return this.upload(this.path(channelUrl, options), { ...params, dedup_id: params.dedup_id ?? crypto.randomUUID() }, [], options);
  }

  /** POSTs an upload form to `path` (a message, or a scheduled message with `extra` fields). */
  async upload(path, params, extra, options = {}) {
    const rest = this.client.rest();
    const fields = fileFields(params).concat(extra);
    const name = params.file_name ?? params.file?.name ?? "file";
    const form = multipartForm(fields, params.file, name, params.file_type);
    const response = await rest.perform("POST", path, { contentType: form.contentType, signal: options.signal }, (init) =>
      sendWithProgress(init, form.body, options.onProgress),
    );
    return response.json();
  }

  get(channelUrl, messageId, options) {
    return this.client.rest().call("GET", this.path(channelUrl, options, `/${messageId}`));
  }

  /**
   * The messages around a point, oldest first: `query` is the API's history parameters
   * (`message_ts` or `message_id`, `prev_limit`, `next_limit`, `include`, `reverse`,
   * `custom_types`, `sender_ids`, `message_type`, `include_reply_type`, `include_parent_message_info`).
   */
  async list(channelUrl, query, options) {
    return (await this.client.rest().call("GET", this.path(channelUrl, options), { query })).messages ?? [];
  }

  /** Changes the fields given (`message`, `custom_type`, `data`, `mentioned_user_ids`). */
  update(channelUrl, messageId, params, options) {
    return this.client.rest().call("PUT", this.path(channelUrl, options, `/${messageId}`), { body: params });
  }

  async delete(channelUrl, messageId, options) {
    await this.client.rest().call("DELETE", this.path(channelUrl, options, `/${messageId}`));
  }

  async addReaction(channelUrl, messageId, key, options) {
    await this.client.rest().call("POST", this.path(channelUrl, options, `/${messageId}/reactions`), { body: { reaction: key } });
  }

  async removeReaction(channelUrl, messageId, key, options) {
    await this.client.rest().call("DELETE", this.path(channelUrl, options, `/${messageId}/reactions`), { query: { reaction: key } });
  }

  /** Makes meta array keys with their values (`[{ key, value: [...] }]`); the message after. */
  createMetaArrayKeys(channelUrl, messageId, arrays, options) {
    return this.client.rest().call("POST", this.path(channelUrl, options, `/${messageId}/sorted_metaarray`), { body: { sorted_metaarray: arrays } });
  }

  addMetaArrayValues(channelUrl, messageId, arrays, options) {
    return this.changeMetaArrays(channelUrl, messageId, arrays, "add", options);
  }

  removeMetaArrayValues(channelUrl, messageId, arrays, options) {
    return this.changeMetaArrays(channelUrl, messageId, arrays, "remove", options);
  }

  deleteMetaArrayKeys(channelUrl, messageId, keys, options) {
    return this.client.rest().call("DELETE", this.path(channelUrl, options, `/${messageId}/sorted_metaarray`), { query: { metaarray_keys: keys } });
  }

  changeMetaArrays(channelUrl, messageId, arrays, mode, options) {
    return this.client.rest().call("PUT", this.path(channelUrl, options, `/${messageId}/sorted_metaarray`), {
      body: { sorted_metaarray: arrays, mode, upsert: true },
    });
  }

  /** The message with translations into `languages` (API.md §9). */
  translate(channelUrl, messageId, languages, options) {
    return this.client.rest().call("POST", this.path(channelUrl, options, `/${messageId}/translation`), { body: { target_langs: languages } });
  }

  /** Messages changed and deleted since `changeTs` or a previous page's `token` (EVENTS.md §11). */
  changelogs(channelUrl, { changeTs, token, limit = 200 } = {}) {
    const query = token ? { token, limit } : { change_ts: changeTs, limit };
    return this.client.rest().call("GET", this.path(channelUrl, {}, "/changelogs"), { query });
  }
}

/** The form fields of a file message's params, beside the file itself. */
function fileFields(params) {
  if (params.file === undefined || params.file === null) throw new ParleyError(400105, 0, "A file message needs a file.");
  const fields = [["message_type", "FILE"]];
  const name = params.file_name ?? params.file?.name;
  if (name) fields.push(["file_name", name]);
  if (params.file_type) fields.push(["file_type", params.file_type]);
  (params.thumbnail_sizes ?? []).slice(0, 3).forEach(([width, height], index) => fields.push([`thumbnail${index + 1}`, `${width}x${height}`]));
  for (const key of ["custom_type", "data", "parent_message_id", "dedup_id"]) {
    if (params[key] !== undefined && params[key] !== null) fields.push([key, String(params[key])]);
  }
  return fields;
}
