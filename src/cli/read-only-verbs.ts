// Verbs that only read. They never create the embedded engine's directories
// (a node where it never ran answers "nothing there"), and a fallback to the
// embedded engine is worth no note for them: they change nothing.
const READ_ONLY = new Set([
  'version', 'info', 'pods', 'inspectp', 'ps', 'inspect', 'logs', 'images', 'inspecti', 'imagefsinfo',
  'stats', 'statsp', 'metricdescs', 'metricsp', 'top',
]);

export function isReadOnlyVerb(id: string): boolean {
  return READ_ONLY.has(id);
}
