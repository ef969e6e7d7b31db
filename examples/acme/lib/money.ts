/** Shared by every app: formatting amounts in cents. */
export function formatCents(cents: number): string {
  return `€${(cents / 100).toFixed(2)}`;
}
