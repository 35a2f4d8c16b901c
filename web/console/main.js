// The operator console: the documented API with the API token, which stays in this page's memory
// only. Reports, users, channels, the audit log, webhooks and live figures.
import { byId } from "../app/dom.js";
import { AdminAPI } from "./api.js";
import { sections } from "./sections.js";

let api = null;
let current = "reports";

byId("sign-in-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const candidate = new AdminAPI(location.origin, byId("api-token").value.trim());
  byId("sign-in-error").textContent = "";
  try {
    await candidate.get("/v3/users", { limit: 1 });
  } catch (error) {
    byId("sign-in-error").textContent = error.status === 401 ? "That is not this server's API token." : error.message;
    return;
  }
  api = candidate;
  byId("api-token").value = "";
  byId("sign-in").hidden = true;
  byId("console").hidden = false;
  await show("reports");
});

byId("sign-out").addEventListener("click", () => {
  api = null;
  byId("section").replaceChildren();
  byId("console").hidden = true;
  byId("sign-in").hidden = false;
});

for (const button of document.querySelectorAll("[data-section]")) {
  button.addEventListener("click", () => show(button.dataset.section));
}

/** Renders a section; its actions report through `status`, and re-render it when done. */
async function show(name, { keepStatus = false } = {}) {
  current = name;
  for (const button of document.querySelectorAll("[data-section]")) button.classList.toggle("active", button.dataset.section === name);
  if (!keepStatus) byId("status").textContent = "";
  const context = {
    api,
    refresh: () => show(current),
    act: async (label, action) => {
      try {
        await action();
        byId("status").textContent = `${label}: done`;
        await show(current, { keepStatus: true });
      } catch (error) {
        byId("status").textContent = `${label}: ${error.message}`;
      }
    },
  };
  try {
    const rendered = await sections[name](context);
    // Another section was chosen meanwhile: it shows, not this late answer.
    if (current === name) byId("section").replaceChildren(rendered);
  } catch (error) {
    byId("status").textContent = error.message;
  }
}
