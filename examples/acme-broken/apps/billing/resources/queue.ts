import * as fly from "@acme-vendors/fly";

export const billingQueue = fly.queue({ name: "billing", retention: 7 });
