export const invoiceNumber = (order: { orderId: string }) => `INV-${order.orderId}`;
