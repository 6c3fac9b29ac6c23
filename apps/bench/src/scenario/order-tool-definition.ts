import { type AnyToolDefinition, defineTool, type JsonSchemaObject } from '@toolcircuit/core';
import { lookUpOrders, ORDER_TOOL_DESCRIPTION, type OrderLookupInput, orderJsonSchema } from './order-tool.js';

/** The right every toolcircuit session of the bench holds, and every order tool requires. */
export const ORDERS_RIGHT = 'orders:read';

/** The order tool as toolcircuit defines it from its JSON Schema; `onRun` counts the runs where needed. */
export function orderToolDefinition(name: string, onRun: () => void = () => {}): AnyToolDefinition {
  return defineTool({
    name,
    description: ORDER_TOOL_DESCRIPTION,
    inputSchema: orderJsonSchema() as JsonSchemaObject,
    right: ORDERS_RIGHT,
    run: (input) => {
      onRun();
      return lookUpOrders(input as unknown as OrderLookupInput);
    },
  });
}
