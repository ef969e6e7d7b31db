import { collection } from "@sanoma-ai/workflows/data";

export const invoices = collection({
  key: "number",
  fields: { number: "string", orderId: "string", amount: "number", paid: "boolean" },
});
