import { type AnyToolDefinition, defineTool, type JsonSchemaObject } from '@toolcircuit/core';
import type { ToolMode } from '../systems/tool-mode.js';
import {
  lookUpOrders,
  lookUpOrdersAsync,
  ORDER_TOOL_DESCRIPTION,
  type OrderLookupInput,
  orderJsonSchema,
} from './order-tool.js';

/** The right every toolcircuit session of the bench holds, and every order tool requires. */
export const ORDERS_RIGHT = 'orders:read';

/** The order tool as toolcircuit defines it from its JSON Schema; `onRun` counts the runs where needed. */
export function orderToolDefinition(
  name: string,
  onRun: () => void = () => {},
  tool: ToolMode = 'sync',
): AnyToolDefinition {
  return defineTool({
    name,
    description: ORDER_TOOL_DESCRIPTION,
    inputSchema: orderJsonSchema() as JsonSchemaObject,
    right: ORDERS_RIGHT,
    run: (input) => {
      onRun();
      const order = input as unknown as OrderLookupInput;
      return tool === 'sync' ? lookUpOrders(order) : lookUpOrdersAsync(order);
    },
  });
}
