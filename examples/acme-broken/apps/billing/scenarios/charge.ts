export const chargeOne = { workflow: "apps/billing/workflows/charge.ts#charge", ops: ["data.invoices.save", "data.orders.get"] };
