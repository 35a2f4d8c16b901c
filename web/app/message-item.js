import { h, time } from "./dom.js";

const quickReactions = ["👍", "❤️", "😂"];

/**
 * One message: sender, text (or the file with its thumbnail), its link preview, translations,
 * reactions, "read" on the user's own messages, and the actions the user may take.
 */
export function messageItem(message, { me, readBy, actions }) {
  const mine = message.user?.user_id === me;
  const sender = message.type === "ADMM" ? "admin" : message.user?.nickname || message.user?.user_id || "";
  const edited = message.updated_at > message.created_at && message.type !== "FILE";
  return h(
    "li",
    { class: `message${mine ? " mine" : ""}${message.type === "ADMM" ? " admin" : ""}`, dataset: { messageId: message.message_id } },
    h("div", { class: "meta" }, h("span", { class: "sender" }, sender), " ", h("time", {}, time(message.created_at)), edited ? h("span", { class: "edited" }, " (edited)") : null),
    body(message),
    linkPreview(message.og_tag),
    translations(message.translations),
    reactions(message, me, actions),
    readBy && readBy.length > 0 ? h("div", { class: "read" }, `Read${readBy.length > 1 ? ` by ${readBy.length}` : ""}`) : null,
    controls(message, mine, actions),
  );
}

/** A message of this device not sent yet, or failed (with retry and remove). */
export function pendingItem(pending, { resend, remove }) {
  const text = pending.kind === "file" ? `📎 ${pending.params.file_name}` : pending.params.message;
  return h(
    "li",
    { class: `message mine pending${pending.failure ? " failed" : ""}`, dataset: { pendingId: pending.id } },
    h("div", { class: "body" }, text),
    pending.failure
      ? h("div", { class: "controls" }, h("span", { class: "error" }, pending.failure.message), " ",
          h("button", { type: "button", class: "retry", onclick: resend }, "Retry"), h("button", { type: "button", onclick: remove }, "Remove"))
      : h("div", { class: "meta" }, "Sending…"),
  );
}

function body(message) {
  if (message.type !== "FILE" || !message.file) return h("div", { class: "body" }, message.message);
  const thumbnail = message.thumbnails?.[0];
  return h(
    "div",
    { class: "body file" },
    thumbnail ? h("img", { src: thumbnail.url, alt: message.file.name, width: thumbnail.real_width, height: thumbnail.real_height, class: "thumbnail" }) : null,
    h("a", { href: message.file.url, download: message.file.name, rel: "noopener" }, `📎 ${message.file.name}`),
    h("span", { class: "size" }, ` ${Math.max(1, Math.round(message.file.size / 1024))} KB`),
  );
}

function linkPreview(og) {
  if (!og || (!og["og:title"] && !og["og:description"])) return null;
  const image = og["og:image"]?.secure_url || og["og:image"]?.url;
  const url = og["og:url"];
  return h(
    "div",
    { class: "preview" },
    image ? h("img", { src: image, alt: og["og:image"]?.alt || "", class: "preview-image" }) : null,
    h("div", {}, url ? h("a", { href: url, rel: "noopener noreferrer", target: "_blank" }, og["og:title"] || url) : h("strong", {}, og["og:title"]), h("p", {}, og["og:description"] || "")),
  );
}

function translations(map) {
  const entries = Object.entries(map ?? {});
  if (entries.length === 0) return null;
  return h("div", { class: "translations" }, entries.map(([language, text]) => h("p", { lang: language }, h("span", { class: "language" }, `${language}: `), text)));
}

function reactions(message, me, actions) {
  const existing = message.reactions ?? [];
  const keys = [...new Set([...existing.map((r) => r.key), ...quickReactions])];
  return h(
    "div",
    { class: "reactions" },
    keys.map((key) => {
      const users = existing.find((r) => r.key === key)?.user_ids ?? [];
      return h("button", { type: "button", class: users.includes(me) ? "reaction on" : "reaction", "aria-label": `react ${key}`, onclick: () => actions.react(key) }, key, users.length ? ` ${users.length}` : "");
    }),
  );
}

function controls(message, mine, actions) {
  const items = [h("button", { type: "button", class: "translate", onclick: () => actions.translate() }, "Translate")];
  if (mine && message.type === "MESG") items.push(h("button", { type: "button", class: "edit", onclick: () => actions.startEdit() }, "Edit"));
  if (!mine && message.user) items.push(h("button", { type: "button", class: "report", onclick: () => actions.report() }, "Report"));
  if (mine) {
    // A second click deletes: no dialog, no accident.
    const remove = h("button", { type: "button", class: "delete" }, "Delete");
    remove.addEventListener("click", () => {
      if (remove.dataset.armed) actions.remove();
      else {
        remove.dataset.armed = "yes";
        remove.textContent = "Delete?";
      }
    });
    items.push(remove);
  }
  return h("div", { class: "controls" }, items);
}
