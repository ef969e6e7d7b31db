import { formatCents } from "../../../lib/money";
import { invoiceNumber } from "../lib/numbers";

/** Charges an order and records its invoice. */
export async function charge(ctx: any, orderId: string) {
  const order = await ctx.call("data.orders.get", { orderId });
  const number = invoiceNumber(order);
  await ctx.call("data.invoices.save", { number, orderId, amount: order.total, paid: false });
  ctx.log(`charged ${formatCents(order.total)}`);
  return number;
}

export const chargeAll = async (ctx: any) => {
  const open = await ctx.call(`data.orders.list`, { status: "open" });
  await ctx.call("data.invoices.saveMany", open.map((o: any) => ({ save: o })));
};
