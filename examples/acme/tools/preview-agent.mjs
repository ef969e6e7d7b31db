// A stand-in for `sanoma preview` that behaves like an agent, so the example's previews show
// something without the framework installed: it prints its progress (in colour), writes a report,
// edits a workflow, and serves a page on a loopback port for a few seconds.
//   node tools/preview-agent.mjs <file> <export>     (PREVIEW_SERVE_MS: how long to serve, default 4000)
import { createServer } from "node:http";
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";

const [file = "workflows/nightly.ts", name = "nightly"] = process.argv.slice(2);
const step = (text) => console.log(`\x1b[36m▸\x1b[0m ${text}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

step(`previewing ${file}#${name} with the connectors' fakes`);
await sleep(200);
step("calling data.orders.list (fake: 3 orders)");
await sleep(200);
mkdirSync("reports", { recursive: true });
writeFileSync(`reports/${name}.md`, `# Preview of ${name}\n\nOrders seen: 3\nTotal: €42.00\n`);
step(`wrote reports/${name}.md`);
appendFileSync(file, `\n// Reviewed by the preview agent: ${name} handles an empty night.\n`);
step(`edited ${file}`);
const server = createServer((_req, res) => { res.writeHead(200, { "content-type": "text/html" }); res.end(`<h1>${name}</h1><p>Total: €42.00</p>`); });
server.listen(0, "127.0.0.1", async () => {
  step(`serving the report on http://127.0.0.1:${server.address().port}`);
  await sleep(Number(process.env.PREVIEW_SERVE_MS ?? 4000));
  server.close();
  console.log("\x1b[32m✓\x1b[0m preview done");
});
