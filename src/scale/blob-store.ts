/**
 * Files by content through Redis (`arena:blob:<sha256>`): the league scheduler uploads the files
 * its plans name (snapshot checkpoints, learner policies, modules, task data); workers on other
 * machines fetch them by hash into a local cache, verify the hash and reuse them. A file is
 * uploaded once per process (SET NX: once overall).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';
import type Redis from 'ioredis';
import { blobKey } from './keys';

/** A file by content: its path where the scheduler runs and the SHA-256 of its bytes (hex). */
export interface ContentRef {
  path: string;
  sha256: string;
}

/** A file that cannot be had by content: not in the store, or a different local copy. */
export class BlobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BlobError';
  }
}

const digest = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** Content-addressed files in Redis, with a local cache folder on the fetching side. */
export class BlobStore {
  private readonly uploaded = new Set<string>();
  private readonly verified = new Map<string, string>();

  constructor(
    private readonly redis: Redis,
    /** Where fetched files are kept (one file per hash). */
    private readonly cacheDir: string,
  ) {}

  /** Uploads a file (once per hash); throws a BlobError when it cannot be read or has changed since it was hashed. */
  async put(ref: ContentRef): Promise<void> {
    if (this.uploaded.has(ref.sha256)) return;
    let data: Buffer;
    try {
      data = readFileSync(ref.path);
    } catch (e) {
      throw new BlobError(`cannot read ${ref.path} to send it to workers (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    if (digest(data) !== ref.sha256) throw new BlobError(`${ref.path} changed while the league runs (its hash is no longer ${ref.sha256.slice(0, 12)}…)`);
    await this.redis.set(blobKey(ref.sha256), data, 'NX');
    this.uploaded.add(ref.sha256);
  }

  /** Forgets which files were uploaded (Redis lost them: the next `put` of each sends it again). */
  forget(): void {
    this.uploaded.clear();
  }

  private async download(ref: ContentRef): Promise<Buffer> {
    const data = await this.redis.getBuffer(blobKey(ref.sha256));
    if (!data) throw new BlobError(`${ref.path} (sha256 ${ref.sha256.slice(0, 12)}…) is not in the Redis store; the scheduler uploads it before its jobs`);
    if (digest(data) !== ref.sha256) throw new BlobError(`the stored copy of ${ref.path} does not match its hash ${ref.sha256.slice(0, 12)}…`);
    return data;
  }

  /** The path of a cached copy of the file (fetched and verified on first use). */
  async cached(ref: ContentRef): Promise<string> {
    const file = resolve(this.cacheDir, `${ref.sha256}${extname(ref.path)}`);
    if (this.verified.get(ref.sha256) === file) return file;
    if (!(existsSync(file) && digest(readFileSync(file)) === ref.sha256)) {
      const data = await this.download(ref);
      mkdirSync(this.cacheDir, { recursive: true });
      const tmp = join(this.cacheDir, `.${ref.sha256}.${process.pid}.tmp`);
      writeFileSync(tmp, data);
      renameSync(tmp, file);
    }
    this.verified.set(ref.sha256, file);
    return file;
  }

  /**
   * Makes sure the file is at its own path here with the same content: a missing file is written
   * from the store (returns true) — only below the working directory (a path that is absolute or
   * leaves it must exist here already); a different one is a BlobError (this machine runs other
   * code or data).
   */
  async ensureAt(ref: ContentRef): Promise<boolean> {
    const abs = resolve(ref.path);
    if (this.verified.get(ref.sha256) === abs) return false;
    if (existsSync(abs)) {
      if (digest(readFileSync(abs)) !== ref.sha256) throw new BlobError(`${ref.path} on this worker differs from the league's (sha256 ${ref.sha256.slice(0, 12)}…); deploy the same files on every machine`);
      this.verified.set(ref.sha256, abs);
      return false;
    }
    const rel = relative(process.cwd(), abs);
    if (isAbsolute(ref.path) || rel.startsWith('..') || isAbsolute(rel)) throw new BlobError(`${ref.path} is missing on this worker and lies outside its working directory, so it is not written from the store; deploy it at that path or run the league with relative paths`);
    const data = await this.download(ref);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, data, { flag: 'wx' });
    this.verified.set(ref.sha256, abs);
    return true;
  }
}
