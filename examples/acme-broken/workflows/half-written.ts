// A workflow saved half-written: the framework cannot load it, so Sanoma says so at its first
// syntax error, and reads nothing it declares (what its text alone says is still judged).
export async function halfWritten(ctx: any) {
  await ctx.call("data.orders.get", { id: 1 }; // expect: syntax-error
}
