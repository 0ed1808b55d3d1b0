/**
 * Helpers shared by the backend loaders (backend.ts, webgpu-backend.ts): one-line error texts
 * and activating a tfjs backend.
 */
import type * as TF from '@tensorflow/tfjs';

/** The first non-empty line of an error's message, at most 240 characters. */
export function errorText(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  const first = text.split('\n').find((l) => l.trim()) ?? text;
  return first.length > 240 ? `${first.slice(0, 237)}...` : first;
}

/** The reason a package could not be loaded: "not installed", or its load error. */
export function describeLoadError(pkg: string, e: unknown): string {
  const code = (e as { code?: string } | null)?.code;
  if ((code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') && errorText(e).includes(`'${pkg}'`)) return `package ${pkg} is not installed`;
  return `${pkg} failed to load: ${errorText(e)}`;
}

/** Makes tfjs backend `id` the active one, or throws saying why. */
export async function activate(tf: typeof TF, id: string): Promise<void> {
  const ok = await tf.setBackend(id);
  if (!ok) throw new Error(`tf.setBackend("${id}") returned false`);
  await tf.ready();
  if (tf.getBackend() !== id) throw new Error(`backend "${id}" did not become active (active: ${tf.getBackend()})`);
}

