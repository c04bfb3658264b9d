import { Worker } from 'node:worker_threads';
import { nudityOf } from '@fmk/core/moderation';

export interface Prediction {
  className: string;
  probability: number;
}

export interface ImageScore {
  /** 0..1: NSFW.js's Porn + Hentai (core's nudityOf). */
  nudity: number;
  predictions: Prediction[];
  /** The model's time for this image (resize and inference), in ms. */
  ms: number;
}

/** Scores an image for nudity. The model, or a stand-in where the model is not wanted. */
export interface ImageScorer {
  score(image: Buffer): Promise<ImageScore>;
  close(): Promise<void>;
}

type Reply = { id: number; predictions: Prediction[]; ms: number } | { id: number; error: string };

/**
 * NSFW.js in one worker thread, so inference (~0.1 s an image) never blocks the event loop. The
 * worker starts on the first image and loads the model once; images queue in the worker and are
 * scored one at a time. A worker that dies fails what it held and is started again on the next image.
 */
export class NsfwScorer implements ImageScorer {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (s: ImageScore) => void; reject: (e: Error) => void }>();

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./nsfw-worker.mjs', import.meta.url));
    // Idle, it must not keep the process alive; while images wait it is ref'd again (below).
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const w = this.waiting.get(reply.id);
      if (!w) return;
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) worker.unref();
      if ('error' in reply) w.reject(new Error(`moderation model: ${reply.error}`));
      else w.resolve({ nudity: nudityOf(reply.predictions), predictions: reply.predictions, ms: reply.ms });
    });
    const fail = (err: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`moderation worker exited (${code})`)));
    this.worker = worker;
    return worker;
  }

  score(image: Buffer): Promise<ImageScore> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.ref();
      // A copy, transferred: the caller keeps its buffer, the worker owns its own.
      const copy = new Uint8Array(image);
      worker.postMessage({ id, image: copy }, [copy.buffer]);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }
}
