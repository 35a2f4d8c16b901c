import { h } from "../app/dom.js";
import { button, form, table, when } from "./widgets.js";

/** Webhook settings, and the delivery log with why a delivery failed and a redelivery. */
export async function webhooks({ api, act }) {
  const { webhook } = await api.get("/v3/applications/settings/webhook");
  const status = webhooks.status ?? "";
  const deliveries = await api.get("/v3/applications/settings/webhook/deliveries", { limit: 50, status });
  const settings = form("webhook-settings", [["url", webhook.url || "https://example.com/parley-webhook"], ["enabled_events", (webhook.enabled_events ?? []).join(",") || "events (a,b or *)"]], "Save", (values) =>
    act("Webhook settings", () => api.put("/v3/applications/settings/webhook", {
      enabled: true, url: values.url || webhook.url, enabled_events: (values.enabled_events ? values.enabled_events.split(",") : webhook.enabled_events ?? []).map((e) => e.trim()).filter(Boolean),
    })));
  const filter = h("select", { "aria-label": "delivery status", onchange: (event) => { webhooks.status = event.target.value; act("Filter", async () => {}); } },
    ["", "pending", "delivered", "failed"].map((s) => h("option", { value: s, selected: s === status }, s || "all")));
  return h("div", {}, h("h2", {}, "Webhook"),
    h("p", {}, webhook.enabled ? `Sending to ${webhook.url}` : "Not enabled.", " ",
      webhook.enabled ? button("Turn off", () => act("Webhook off", () => api.put("/v3/applications/settings/webhook", { enabled: false }))) : null),
    settings,
    h("h3", {}, "Deliveries ", filter),
    table([
      ["Created", (d) => when(d.created_at)], ["Event", (d) => d.category], ["Status", (d) => d.status], ["Attempts", (d) => d.attempts],
      ["Last answer", (d) => [d.last_status_code ? `HTTP ${d.last_status_code}` : "", d.last_error ?? ""].filter(Boolean).join(" ")],
      ["Delivered", (d) => when(d.delivered_at)],
      // Also a delivered one: the receiver may have lost it (same webhook-id, same body).
      ["", (d) => h("span", { dataset: { deliveryId: d.delivery_id } }, button("Redeliver", () => act(`Redeliver ${d.delivery_id}`, () => api.post(`/v3/applications/settings/webhook/deliveries/${d.delivery_id}/redeliver`, {}))))],
    ], deliveries.deliveries ?? [], "No deliveries."));
}

/** What `/metrics` says now: sockets, requests, queues, refreshed every 5 s while shown. */
export async function figures({ api }) {
  const panel = h("div", { id: "figures" });
  const render = async () => {
    let text;
    try {
      text = await api.get("/metrics");
    } catch (error) {
      panel.replaceChildren(h("p", { class: "error" }, `/metrics: ${error.message} (PARLEY_METRICS_PORT serves it elsewhere)`));
      return;
    }
    const sum = (name) => parse(text).filter((m) => m.name === name).reduce((total, m) => total + m.value, 0);
    const rows = [
      ["Open event-stream sockets", sum("parley_event_sockets_open")],
      ["Requests in progress", sum("parley_http_active_requests")],
      ["Requests served", sum("parley_http_requests_total")],
      ["Events delivered", sum("parley_events_delivered_total")],
      ["Database connections in use", sum("parley_db_connections_in_use")],
      ["Webhook deliveries waiting", sum("parley_webhook_queue_pending")],
      ["Pushes waiting", sum("parley_push_queue_pending")],
      ["Uploads", sum("parley_uploads_total")],
    ];
    panel.replaceChildren(h("h2", {}, "Live figures"), table([["Figure", (r) => r[0]], ["Now", (r) => String(r[1])]], rows), h("p", { class: "hint" }, `Updated ${new Date().toLocaleTimeString()}`));
  };
  await render();
  const timer = setInterval(() => (panel.isConnected ? render() : clearInterval(timer)), 5000);
  return panel;
}

/** Prometheus text: `name{labels} value` lines. */
function parse(text) {
  return text.split("\n").filter((line) => line && !line.startsWith("#")).map((line) => {
    const match = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    return match ? { name: match[1], value: Number(match[3]) || 0 } : { name: "", value: 0 };
  });
}
