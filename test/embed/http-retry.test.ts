import { test } from "node:test";
import assert from "node:assert/strict";
import { openAiEndpoint, parseHttpUrl, readBearerKey } from "../../src/embed/http-retry";

test("parseHttpUrl takes http(s) URLs and names the flag and an example otherwise", () => {
  assert.equal(parseHttpUrl("https://h:1/rerank", "--rerank-url", "http://x/rerank").host, "h:1");
  assert.throws(
    () => parseHttpUrl("nonsense", "--rerank-url", "http://127.0.0.1:8080/rerank"),
    /^SeamlabError: --rerank-url must be an http\(s\) URL such as http:\/\/127\.0\.0\.1:8080\/rerank, got "nonsense"\.$/,
  );
  assert.throws(
    () => parseHttpUrl("ftp://h", "--x-url", "http://h"),
    /--x-url must use http or https, got "ftp:\/\/h"/,
  );
});

test("openAiEndpoint completes a root or a /v1 URL with the route and keeps a full endpoint", () => {
  assert.equal(openAiEndpoint("http://h:8080", "embeddings", "--u", "e"), "http://h:8080/v1/embeddings");
  assert.equal(openAiEndpoint("http://h/api/v1/", "chat/completions", "--u", "e"), "http://h/api/v1/chat/completions");
  assert.equal(openAiEndpoint("http://h/x/embeddings", "embeddings", "--u", "e"), "http://h/x/embeddings");
});

test("readBearerKey sends a key as a bearer token, names its variable, and refuses a named but empty variable", () => {
  const withKey = readBearerKey(undefined, "SEAMLAB_X_KEY", "--x-key-env", { SEAMLAB_X_KEY: "s3cret" });
  assert.deepEqual(withKey.auth, {
    headers: { authorization: "Bearer s3cret" },
    keySource: "the key in $SEAMLAB_X_KEY",
    secret: "s3cret",
  });
  const none = readBearerKey(undefined, "SEAMLAB_X_KEY", "--x-key-env", {});
  assert.deepEqual(none.auth, { headers: {}, keySource: "$SEAMLAB_X_KEY (unset: no key was sent)", secret: undefined });
  assert.throws(
    () => readBearerKey("MY_KEY", "SEAMLAB_X_KEY", "--x-key-env", { MY_KEY: "" }),
    /--x-key-env names \$MY_KEY, but that environment variable is empty or unset\./,
  );
});
