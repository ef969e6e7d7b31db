/** An agent workflow: reads new tickets, drafts replies, closes what it can. */
export async function triage(ctx: any) {
  const tickets = await ctx.call("data.tickets.list", { state: "new" });
  for (const t of tickets) {
    const customer = await ctx.call("data.customers.get", { id: t.customerId });
    const reply = await ctx.agent("support", { ticket: t, customer });
    await ctx.call("data.tickets.save", { ...t, state: reply.done ? "closed" : "waiting" });
  }
  return { handled: tickets.length };
}
