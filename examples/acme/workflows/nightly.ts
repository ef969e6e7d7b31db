import { formatCents } from "../lib/money";

/** Every night: totals yesterday's orders and mails a summary. */
export async function nightly(ctx: any) {
  const orders = await ctx.call("data.orders.list", { since: "yesterday" });
  const total = orders.reduce((sum: number, o: { total: number }) => sum + o.total, 0);
  await ctx.call("data.customers.count", {});
  return { total: formatCents(total) };
}
