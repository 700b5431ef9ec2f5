// Whether a report kernel needs @types/node at all. Parsing its 2.3 MB of declarations was about 1.3 s of each
// kernel's 4.4 s of CPU before any notebook work. A notebook that imports only project files and names none of the
// globals @types/node declares is checked the same without it (src/'s declarations then read Node's types as `any`,
// which skipLibCheck never reports).
import { createRequire } from "node:module";
import type * as TypeScript from "typescript";

let loaded: typeof TypeScript | undefined;
/** Loaded on first use: the compiling worker imports this module and does not need it. */
function typescript(): typeof TypeScript {
  return (loaded ??= createRequire(import.meta.url)("typescript") as typeof TypeScript);
}

/** Identifiers and module specifiers a piece of notebook code uses, from a real parse (not a regex). */
function codeReferences(code: string): { identifiers: Set<string>; modules: string[] } {
  const ts = typescript();
  const file = ts.createSourceFile("cell.ts", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const identifiers = new Set<string>();
  const modules: string[] = [];
  const visit = (node: TypeScript.Node): void => {
    if (ts.isIdentifier(node)) identifiers.add(node.text);
    else if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) modules.push(node.moduleSpecifier.text);
    } else if (ts.isExternalModuleReference(node) && ts.isStringLiteral(node.expression)) {
      modules.push(node.expression.text);
    } else if (ts.isCallExpression(node) && node.arguments.length > 0) {
      const callee = node.expression;
      const isLoad =
        callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === "require");
      // A dynamic specifier could name anything: count it as a package.
      if (isLoad) modules.push(ts.isStringLiteral(node.arguments[0]) ? node.arguments[0].text : "?");
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { identifiers, modules };
}

/** True when a cell imports a non-relative path or names one of `nodeGlobals` anywhere (a property `process` too). */
export function needsNodeTypes(codes: readonly string[], nodeGlobals: ReadonlySet<string>): boolean {
  for (const code of codes) {
    if (plainlyClear(code, nodeGlobals)) continue;
    const { identifiers, modules } = codeReferences(code);
    if (modules.some((specifier) => !specifier.startsWith("./") && !specifier.startsWith("../"))) return true;
    for (const name of identifiers) if (nodeGlobals.has(name)) return true;
  }
  return false;
}

/** `import { a, b } from "./x"` (or "../x"), the one kind of import a project notebook has. */
const RELATIVE_NAMED_IMPORT = /^[ \t]*import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*["']\.\.?\/[^"'\n]*["'];?[ \t]*$/gm;

/**
 * True when a look at the words proves what the parse would find: no word is a Node global (the words hold every
 * identifier, and words of strings and comments besides) and, relative named imports left as their names, none is
 * `import`, `export` or `require`, without which no module is named. Skips loading TypeScript (0.3 s of CPU) for most
 * notebooks; anything else, an escape like `\u0070rocess` too, goes to the parse.
 */
export function plainlyClear(code: string, nodeGlobals: ReadonlySet<string>): boolean {
  if (code.includes("\\u")) return false;
  for (const word of code
    .replace(RELATIVE_NAMED_IMPORT, (_, names: string) => ` ${names} `)
    .match(/[A-Za-z_$][\w$]*/g) ?? []) {
    if (word === "import" || word === "export" || word === "require" || nodeGlobals.has(word)) return false;
  }
  return true;
}
