import { test } from "node:test";
import assert from "node:assert/strict";
import { chartRows, toCsv } from "../../src/report/data-links";

test("CSV quotes fields with commas, quotes and newlines (RFC 4180)", () => {
  assert.equal(toCsv([{ a: 'say "hi", then\nleave', b: 2 }]), 'a,b\r\n"say ""hi"", then\nleave",2\r\n');
});

test("corpus text that looks like a spreadsheet formula is defused; negative numbers are not", () => {
  assert.equal(
    toCsv([{ t: '=HYPERLINK("http://x")', n: -3, s: "@sum" }]),
    't,n,s\r\n"\'=HYPERLINK(""http://x"")",-3,\'@sum\r\n',
  );
});

test("a chart's rows come from data.values, else from its first named dataset", () => {
  assert.deepEqual(chartRows({ data: { values: [{ a: 1 }] } }), [{ a: 1 }]);
  assert.deepEqual(chartRows({ data: { name: "d" }, datasets: { d: [{ b: 2 }] } }), [{ b: 2 }]);
  assert.equal(chartRows({ mark: "point" }), undefined);
});
