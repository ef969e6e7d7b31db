export const quietNight = {
  workflow: "workflows/nightly.ts#nightly",
  given: { "data.orders.list": [] },
};
