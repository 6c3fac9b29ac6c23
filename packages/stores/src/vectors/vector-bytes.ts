/** The table the SQL tool-vector caches keep their vectors in (outside the store's migrated tables). */
export const TOOL_VECTOR_TABLE = 'toolcircuit_tool_vectors';

/** A vector as little-endian float32 bytes: 4 bytes a dimension, a third of its JSON text. */
export function toVectorBytes(vector: Float32Array): Buffer {
  const bytes = Buffer.alloc(vector.length * 4);
  for (const [index, value] of vector.entries()) bytes.writeFloatLE(value, index * 4);
  return bytes;
}

export function fromVectorBytes(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Float32Array.from({ length: Math.floor(bytes.byteLength / 4) }, (_, index) =>
    view.getFloat32(index * 4, true),
  );
}
