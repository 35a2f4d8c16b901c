import { ParleyError } from "./errors.js";

/**
 * A `multipart/form-data` body (API.md §5.1): the text fields, then the file. `file` is a Blob (a
 * browser's File), an ArrayBuffer or a typed array (a Node Buffer).
 */
export function multipartForm(fields, file, fileName, mimeType) {
  const boundary = `parley-js-${crypto.randomUUID()}`;
  const parts = [];
  for (const [name, value] of fields) {
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  }
  const quoted = String(fileName).replace(/"/g, "%22").replace(/[\r\n]/g, "");
  parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted}"\r\n`);
  parts.push(`Content-Type: ${mimeType || file.type || "application/octet-stream"}\r\n\r\n`);
  parts.push(file, `\r\n--${boundary}--\r\n`);
  return { body: new Blob(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Sends an upload, reporting `progress(sent, total)` and stopping when `signal` aborts. Browsers
 * go through XMLHttpRequest, the one browser API that reports an upload's progress (fetch does
 * not); Node streams the body to fetch and counts what it hands over.
 */
export function sendWithProgress(init, body, progress) {
  if (typeof XMLHttpRequest === "function") return viaXHR(init, body, progress);
  return viaStream(init, body, progress);
}

function viaXHR(init, body, progress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(init.method, init.url);
    for (const [name, value] of Object.entries(init.headers)) xhr.setRequestHeader(name, value);
    xhr.responseType = "text";
    if (progress) xhr.upload.onprogress = (event) => progress(event.loaded, event.total || body.size);
    xhr.onload = () => resolve(new Response(xhr.responseText || null, { status: xhr.status }));
    xhr.onerror = () => reject(new ParleyError(0, 0, "The upload failed on the way."));
    xhr.onabort = () => reject(new ParleyError(0, 0, "The upload was cancelled."));
    init.signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    if (init.signal?.aborted) xhr.abort();
    else xhr.send(body);
  });
}

async function viaStream(init, body, progress) {
  const bytes = new Uint8Array(await body.arrayBuffer());
  const total = bytes.length;
  const chunk = 64 * 1024;
  let sent = 0;
  const stream = new ReadableStream({
    pull(controller) {
      if (sent >= total) {
        controller.close();
        return;
      }
      const end = Math.min(sent + chunk, total);
      controller.enqueue(bytes.subarray(sent, end));
      sent = end;
      progress?.(sent, total);
    },
  });
  const headers = { ...init.headers, "Content-Length": String(total) };
  return fetch(init.url, { method: init.method, headers, body: stream, duplex: "half", signal: init.signal });
}
