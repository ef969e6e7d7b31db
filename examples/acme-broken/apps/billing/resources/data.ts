import { collection } from "@sanoma-ai/workflows/data";

export const invoices = collection({
  key: "number",
  fields: { number: "string", orderId: "string", amount: "number", paid: "boolean" },
});

export const orders = collection({ key: "id", fields: { id: "string" } }); // expect: collection-name
