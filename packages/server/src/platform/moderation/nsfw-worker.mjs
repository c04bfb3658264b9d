// The NSFW.js model in a worker thread (plain JavaScript, so it runs the same under tsx, vitest
// and plain node). It loads the MobileNetV2 weights bundled inside the nsfwjs package (no
// network), once, on the first image, and answers one message per image:
//   in:  { id, image }            image: the photo's bytes (any format sharp reads)
//   out: { id, predictions, ms }  or { id, error }
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { load } from 'nsfwjs/core';
import { MobileNetV2Model } from 'nsfwjs/models/mobilenet_v2';
import sharp from 'sharp';

// On Linux a nice value is per thread, and pid 0 is the calling thread: this worker yields the
// CPU to the event loop (and to uploads' re-encoding) whenever they want it, so scoring in the
// background cannot delay requests on a busy machine. Elsewhere it may renice the whole process,
// so it is done on Linux only; refusal (a container without the right) changes nothing.
if (process.platform === 'linux') {
  try {
    setPriority(0, 19);
  } catch {
    // scoring still works at normal priority
  }
}

// MobileNetV2's input size: resizing here (libvips) is cheaper than inside the graph.
const SIZE = 224;
let model = null;

async function theModel() {
  if (!model) {
    model = (async () => {
      // The WASM backend: ~0.1 s an image here; the pure-JS CPU backend takes seconds.
      await tf.setBackend('wasm');
      await tf.ready();
      // nsfwjs announces the model it loads on console.info; the server's log is pino's.
      const info = console.info;
      console.info = () => {};
      try {
        return await load('MobileNetV2', { modelDefinitions: [MobileNetV2Model], size: SIZE });
      } finally {
        console.info = info;
      }
    })();
  }
  return model;
}

async function classify(image) {
  const nsfw = await theModel();
  const started = performance.now();
  const { data } = await sharp(image, { limitInputPixels: 50_000_000 })
    .resize(SIZE, SIZE, { fit: 'cover' })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const input = tf.tensor3d(new Uint8Array(data.buffer, data.byteOffset, data.length), [SIZE, SIZE, 3], 'int32');
  try {
    const predictions = await nsfw.classify(input, 5);
    return { predictions, ms: performance.now() - started };
  } finally {
    input.dispose();
  }
}

parentPort.on('message', async ({ id, image }) => {
  try {
    parentPort.postMessage({ id, ...(await classify(Buffer.from(image))) });
  } catch (err) {
    parentPort.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
