// Copies caller input into stored shape field by field: absent optionals become null, and
// anything the caller sent beyond the contract (server-owned fields included) is dropped.

import type { AddressInput, CustomerInput } from "./input.ts";
import type { Address, Customer, Totals } from "./model.ts";

export function orNull<T>(value: T | null | undefined): T | null {
  return value ?? null;
}

export function toAddress(input: AddressInput): Address {
  return {
    name: input.name,
    company: orNull(input.company),
    line1: input.line1,
    line2: orNull(input.line2),
    city: input.city,
    region: orNull(input.region),
    postal_code: orNull(input.postal_code),
    country: input.country,
    phone: orNull(input.phone),
    email: orNull(input.email),
  };
}

export function toCustomer(input: CustomerInput): Customer {
  return { name: orNull(input.name), email: orNull(input.email), phone: orNull(input.phone) };
}

export function toTotals(input: Totals): Totals {
  return {
    subtotal: input.subtotal,
    discount: input.discount,
    tax: input.tax,
    shipping: input.shipping,
    total: input.total,
  };
}

export function toMetadata(input: Record<string, string>): Record<string, string> {
  return { ...input };
}
