import { collection } from "@sanoma-ai/workflows/data";

export const customers = collection({
  key: "id",
  fields: { id: "string", name: "string", email: "string", plan: "string" },
});

export const orders = collection({
  name: "orders",
  key: "orderId",
  fields: { orderId: "string", customerId: "string", total: "number", status: "string" },
});
