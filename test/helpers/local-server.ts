import { createServer, IncomingMessage, Server, ServerResponse } from "node:http";
import { AddressInfo } from "node:net";

/** One request as the test server saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: unknown;
}

export type Reply = (request: SeenRequest, response: ServerResponse) => void;

/**
 * A protocol-speaking HTTP server on 127.0.0.1 (port 0) for client tests: each request is answered by the next
 * reply in `replies` (the last one repeats). Nothing leaves the machine.
 */
export async function startLocalServer(
  replies: Reply[],
): Promise<{ url: string; seen: SeenRequest[]; close: () => Promise<void> }> {
  const seen: SeenRequest[] = [];
  let next = 0;
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => {
      const text = Buffer.concat(parts).toString("utf8");
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // keep the raw text
      }
      const request = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      seen.push(request);
      const reply = replies[Math.min(next++, replies.length - 1)];
      reply(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return (_request, response) => {
    response.writeHead(status, { "content-type": "application/json", ...headers });
    response.end(JSON.stringify(body));
  };
}

export function raw(status: number, text: string, headers: Record<string, string> = {}): Reply {
  return (_request, response) => {
    response.writeHead(status, headers);
    response.end(text);
  };
}

/** Never answers (until the server closes): for timeout tests. */
export const silent: Reply = () => {};
