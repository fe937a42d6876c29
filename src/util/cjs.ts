// A CommonJS package imported dynamically from the ESM bundle may keep its
// exports under `default` (esbuild's interop): take them from there when so.
export function cjs<T>(mod: T): T {
  const d = (mod as { default?: T }).default;
  return (d && (typeof d === 'object' || typeof d === 'function') ? d : mod) as T;
}

/** The yaml package, loaded on first use (it is not needed by most calls). */
export async function loadYaml(): Promise<typeof import('yaml')> {
  return cjs(await import('yaml'));
}
