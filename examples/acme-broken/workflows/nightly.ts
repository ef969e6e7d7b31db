import { formatCents } from "../lib/money";
import { charge } from "../apps/billing/workflows/charge"; // expect: no-app-import-from-root
import { readFileSync } from "../../../outside/fs"; // expect: no-import-outside-company

/** Every night: totals yesterday's orders and mails a summary. */
export async function nightly(ctx: any) {
  const orders = await ctx.call("data.orders.lst", { since: "yesterday" }); // expect: collection-op
  const total = orders.reduce((sum: number, o: { total: number }) => sum + o.total, 0);
  await ctx.call("data.tickets.count", {}); // expect: collection-scope
  return { total: formatCents(total), charge, readFileSync };
}
