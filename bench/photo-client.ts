import http from 'node:http';

/**
 * A photo uploader that costs the benchmark's process as little as it can, so that a figure
 * measured in this process is the server's: the client is a phone elsewhere. Each photo's
 * multipart body is built once and sent as it is, byte for byte what a browser sends, over
 * kept-alive connections (fetch's FormData would encode and copy 2.6 MB per upload, in this
 * process, on the server's CPUs and event loop).
 */
export function photoUploader(url: string, authorization: string, photos: readonly Buffer[]) {
  const boundary = 'fmk-bench-boundary-7d1f0c';
  const bodies = photos.map((jpeg) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="photo.jpg"\r\ncontent-type: image/jpeg\r\n\r\n`,
      ),
      jpeg,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  );
  const agent = new http.Agent({ keepAlive: true });
  const target = new URL(url);
  return {
    /** Uploads photo i (modulo the photos given); true when the server answered 201. */
    upload: (i = 0) =>
      new Promise<boolean>((resolve) => {
        const body = bodies[i % bodies.length]!;
        const headers = {
          authorization,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': body.length,
        };
        const req = http.request(target, { method: 'POST', agent, headers }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode === 201));
        });
        req.on('error', () => resolve(false));
        req.end(body);
      }),
    close: () => agent.destroy(),
  };
}
