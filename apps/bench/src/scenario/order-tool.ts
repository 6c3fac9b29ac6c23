import { z } from 'zod';

/**
 * The benchmark's tool: look up a customer's orders. Its schema has what real tool schemas have and what
 * makes validation cost something: a nested object, enums, an array of objects with bounds, string
 * patterns and integer ranges. Every field is required and no extra key is allowed, so the same schema is
 * expressible identically in JSON Schema (toolcircuit, the hand-written floor) and Zod (the `ai` package,
 * `@openai/agents`, whose strict mode refuses optional fields).
 */
export const ORDER_TOOL_DESCRIPTION =
  "Look up a customer's orders by status and line items. Use it when the user asks about an order.";

export interface OrderLookupInput {
  readonly customer: { readonly id: string; readonly tier: 'free' | 'pro' | 'enterprise' };
  readonly status: 'open' | 'shipped' | 'delivered' | 'cancelled';
  readonly items: readonly { readonly sku: string; readonly quantity: number }[];
  readonly window: { readonly from: string; readonly to: string };
}

export interface OrderLookupOutput {
  readonly customerId: string;
  readonly status: string;
  readonly lines: number;
  readonly units: number;
  readonly orders: readonly { readonly id: string; readonly status: string }[];
}

const DATE = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';
const CUSTOMER_ID = '^C-[0-9]{6}$';
const SKU = '^[A-Z]{3}-[0-9]{4}$';

/** A fresh JSON Schema object per tool: a real catalogue has one schema object per tool, not one shared. */
export function orderJsonSchema(): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      customer: {
        type: 'object',
        properties: {
          id: { type: 'string', pattern: CUSTOMER_ID, description: 'Customer number, e.g. C-004211.' },
          tier: { type: 'string', enum: ['free', 'pro', 'enterprise'] },
        },
        required: ['id', 'tier'],
        additionalProperties: false,
      },
      status: { type: 'string', enum: ['open', 'shipped', 'delivered', 'cancelled'] },
      items: {
        type: 'array',
        minItems: 1,
        maxItems: 20,
        items: {
          type: 'object',
          properties: {
            sku: { type: 'string', pattern: SKU },
            quantity: { type: 'integer', minimum: 1, maximum: 100 },
          },
          required: ['sku', 'quantity'],
          additionalProperties: false,
        },
      },
      window: {
        type: 'object',
        properties: {
          from: { type: 'string', pattern: DATE },
          to: { type: 'string', pattern: DATE },
        },
        required: ['from', 'to'],
        additionalProperties: false,
      },
    },
    required: ['customer', 'status', 'items', 'window'],
    additionalProperties: false,
  };
}

/** The same schema in Zod 4, one instance per tool (what an `ai` or Agents application writes). */
export function orderZodSchema() {
  return z
    .object({
      customer: z
        .object({
          id: z.string().regex(new RegExp(CUSTOMER_ID)).describe('Customer number, e.g. C-004211.'),
          tier: z.enum(['free', 'pro', 'enterprise']),
        })
        .strict(),
      status: z.enum(['open', 'shipped', 'delivered', 'cancelled']),
      items: z
        .array(
          z
            .object({
              sku: z.string().regex(new RegExp(SKU)),
              quantity: z.number().int().min(1).max(100),
            })
            .strict(),
        )
        .min(1)
        .max(20),
      window: z.object({ from: z.string().regex(new RegExp(DATE)), to: z.string().regex(new RegExp(DATE)) }).strict(),
    })
    .strict();
}

/**
 * What every system's tool does with a validated input: a little real work on it, a small JSON answer.
 * Shared by all systems so the tool itself costs the same everywhere.
 */
export function lookUpOrders(input: OrderLookupInput): OrderLookupOutput {
  let units = 0;
  for (const item of input.items) units += item.quantity;
  return {
    customerId: input.customer.id,
    status: input.status,
    lines: input.items.length,
    units,
    orders: [
      { id: `${input.customer.id}-1`, status: input.status },
      { id: `${input.customer.id}-2`, status: input.status },
    ],
  };
}

/**
 * The same work behind a promise, as a tool that does I/O answers: what real tools look like, and what
 * takes every system off a synchronous fast path. It resolves at once, so what is timed is each system's
 * handling of the promise, not a wait.
 */
export async function lookUpOrdersAsync(input: OrderLookupInput): Promise<OrderLookupOutput> {
  return lookUpOrders(input);
}

const STATUSES = ['open', 'shipped', 'delivered', 'cancelled'] as const;
const TIERS = ['free', 'pro', 'enterprise'] as const;

/** A valid input, varied by `seed` so no system can get away with caching one value. */
export function orderInput(seed: number): OrderLookupInput {
  const digits = String(seed % 1_000_000).padStart(6, '0');
  return {
    customer: { id: `C-${digits}`, tier: TIERS[seed % TIERS.length] ?? 'pro' },
    status: STATUSES[seed % STATUSES.length] ?? 'open',
    items: [
      { sku: 'ABC-1234', quantity: 1 + (seed % 5) },
      { sku: 'XYZ-0042', quantity: 2 },
      { sku: 'QRS-7000', quantity: 1 },
    ],
    window: { from: '2026-01-01', to: '2026-03-31' },
  };
}

/** An input every system must refuse: the customer id breaks its pattern and a quantity is out of range. */
export function invalidOrderInput(): unknown {
  return {
    customer: { id: 'customer-7', tier: 'pro' },
    status: 'open',
    items: [{ sku: 'ABC-1234', quantity: 0 }],
    window: { from: '2026-01-01', to: '2026-03-31' },
  };
}
