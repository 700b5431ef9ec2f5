// The Jupyter wire format (protocol 5.3): [routing ids..., "<IDS|MSG>", hmac, header, parent_header, metadata,
// content, buffers...], the hmac an HMAC-SHA256 over the four JSON frames keyed with the connection file's key.
import { createHmac, randomUUID } from "node:crypto";

export const DELIMITER = "<IDS|MSG>";

export interface MessageHeader {
  msg_id: string;
  msg_type: string;
  session: string;
  username: string;
  date: string;
  version: string;
}

export interface JupyterMessage {
  header: MessageHeader;
  parent_header: Partial<MessageHeader>;
  metadata: Record<string, unknown>;
  content: Record<string, unknown>;
}

export function sign(key: string, frames: string[]): string {
  return frames.reduce((hmac, frame) => hmac.update(frame), createHmac("sha256", key)).digest("hex");
}

export function newMessage(msgType: string, content: Record<string, unknown>, session: string): JupyterMessage {
  return {
    header: {
      msg_id: randomUUID(),
      msg_type: msgType,
      session,
      username: "seamlab",
      date: new Date().toISOString(),
      version: "5.3",
    },
    parent_header: {},
    metadata: {},
    content,
  };
}

/** Serialises a message into signed frames (no routing ids: DEALER sockets add none). */
export function encodeMessage(key: string, message: JupyterMessage): string[] {
  const { header, parent_header, metadata, content } = message;
  const body = [header, parent_header, metadata, content].map((part) => JSON.stringify(part));
  return [DELIMITER, sign(key, body), ...body];
}

/** Parses received frames; throws when the delimiter is missing or the signature does not match. */
export function decodeMessage(key: string, frames: Buffer[]): JupyterMessage {
  const at = frames.findIndex((frame) => frame.toString() === DELIMITER);
  if (at < 0 || frames.length < at + 6) throw new Error("kernel message without <IDS|MSG> delimiter or body");
  const signature = frames[at + 1].toString();
  const body = frames.slice(at + 2, at + 6).map((frame) => frame.toString());
  if (key !== "" && signature !== sign(key, body)) throw new Error("kernel message with a bad HMAC signature");
  const [header, parent_header, metadata, content] = body.map((frame) => JSON.parse(frame));
  return { header, parent_header, metadata, content };
}
