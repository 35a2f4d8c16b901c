import { h } from "../app/dom.js";

/** A table of `rows` with a header; each column is `[title, row => cell]`. */
export function table(columns, rows, empty = "Nothing here.") {
  if (rows.length === 0) return h("p", { class: "empty" }, empty);
  return h(
    "table",
    {},
    h("thead", {}, h("tr", {}, columns.map(([title]) => h("th", {}, title)))),
    h("tbody", {}, rows.map((row) => h("tr", {}, columns.map(([, cell]) => h("td", {}, cell(row) ?? ""))))),
  );
}

/** A small form: `fields` are `[name, placeholder]`; `onSubmit(values)`. */
export function form(id, fields, label, onSubmit) {
  const inputs = fields.map(([name, placeholder]) => h("input", { name, placeholder, "aria-label": placeholder }));
  return h(
    "form",
    {
      id,
      class: "inline",
      onsubmit: (event) => {
        event.preventDefault();
        onSubmit(Object.fromEntries(inputs.map((input) => [input.name, input.value.trim()])));
      },
    },
    inputs,
    h("button", { type: "submit" }, label),
  );
}

export const button = (label, onclick, className) => h("button", { type: "button", class: className, onclick }, label);

export const when = (ms) => (ms ? new Date(ms).toLocaleString() : "");

export const who = (user) => (user ? `${user.nickname || user.user_id} (${user.user_id})` : "");
